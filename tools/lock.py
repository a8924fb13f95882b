"""Write requirements.lock with uv's universal resolver, and check it installs everywhere.

    python tools/lock.py            # `make lock`: regenerate requirements.lock
    python tools/lock.py --check    # resolve the lock on every platform and Python below

The lock pins one set of versions for every platform, each line carrying the
markers that say where it applies (``nvidia-* ; sys_platform == 'linux'``), so
pip installs only what exists there. It is resolved from pyproject.toml (all
extras, plus the build requirements: ``pip install --no-build-isolation -e .``
needs setuptools, which Python 3.12+ venvs lack). The pins already in the lock
are kept where they still fit (uv prefers them), so a regeneration moves only
what pyproject.toml asks to move; ``--upgrade-package torch`` and friends move
one on purpose.

``--check`` needs the registry: for each platform and Python in
:data:`TARGETS` it asks uv to resolve the lock there, which fails when a pin
has no wheel for that platform (``cuda-bindings`` on macOS, a torch too new
for Python 3.11), and compares the result with the pins whose markers hold
there. It also regenerates the lock into a temporary file and checks that it
matches, so pyproject.toml and the lock cannot drift apart.

Needs uv: ``make setup`` installs it into .venv (the dev extra pins it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
HEADER = (
    "# Exact versions that `make` installs: the one source of truth for pins, for every\n"
    "# platform (markers say where a line applies). Ranges live in pyproject.toml.\n"
    "# Regenerate with `make lock` (tools/lock.py, uv's universal resolver) after changing them.\n"
)
LOWEST_PYTHON = "3.11"  # the lock is resolved for this Python and every newer one
PYTHONS = ("3.11", "3.12", "3.13")
# Torch's wheels for Apple silicon need macOS 14 or newer (uv's default target is 13).
MACOS_MIN = "14.0"
# uv's --python-platform for each platform the course supports, and the marker
# values (PEP 508) that a Python there reports.
PLATFORMS = {
    "Linux x86_64": (
        "x86_64-unknown-linux-gnu",
        {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64",
         "os_name": "posix"},
    ),
    "Linux aarch64": (
        "aarch64-unknown-linux-gnu",
        {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "aarch64",
         "os_name": "posix"},
    ),
    "macOS arm64": (
        "aarch64-apple-darwin",
        {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "arm64",
         "os_name": "posix"},
    ),
    "Windows x86_64": (
        "x86_64-pc-windows-msvc",
        {"sys_platform": "win32", "platform_system": "Windows", "platform_machine": "AMD64",
         "os_name": "nt"},
    ),
}  # fmt: skip
TARGETS = [(platform, python) for platform in PLATFORMS for python in PYTHONS]


def uv_command() -> list[str]:
    """How to run uv: the module installed beside this Python, else ``uv`` on PATH."""
    try:
        from uv import find_uv_bin

        return [find_uv_bin()]
    except (ImportError, FileNotFoundError):
        pass
    found = shutil.which("uv")
    if found is None:
        raise FileNotFoundError(
            "uv is not installed: `make setup` installs it into .venv, or `pip install uv`"
        )
    return [found]


def uv(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``uv args``; raise with uv's own message when it fails."""
    # --python: this interpreter, so that uv never looks for (or downloads) a
    # Python of the target version: --python-version is all it resolves for.
    done = subprocess.run(
        [*uv_command(), *args, "--python", sys.executable, "--no-python-downloads"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    if done.returncode != 0:
        raise RuntimeError(f"uv {' '.join(args[:2])} failed:\n{done.stderr.strip()}")
    return done


def build_requirements(root: Path = ROOT) -> list[str]:
    """The ``[build-system] requires`` of pyproject.toml (setuptools)."""
    return tomllib.loads((root / "pyproject.toml").read_text())["build-system"]["requires"]


def compile_lock(output: Path, *, extra_args=()) -> None:
    """Resolve pyproject.toml (all extras and the build requirements) into ``output``.

    Pins already in ``output`` are kept where they still fit.
    """
    with tempfile.TemporaryDirectory() as tmp:
        build = Path(tmp) / "build-system.txt"
        build.write_text("\n".join(build_requirements()) + "\n")
        uv(
            "pip", "compile", "pyproject.toml", str(build), "--all-extras", "--universal",
            "--python-version", LOWEST_PYTHON, "--output-file", str(output), "--quiet",
            "--custom-compile-command", "make lock", "--annotation-style", "line",
            *extra_args,
        )  # fmt: skip
    text = output.read_text()
    # The build file's temporary path would change at every run: name it for what it is.
    text = text.replace(f"-r {build}", "pyproject.toml [build-system]")
    if not text.startswith(HEADER):
        text = HEADER + text
    output.write_text(text)


def lock_requirements(path: Path = LOCK) -> list:
    """The lock's lines as ``packaging`` Requirements (name, ``==`` version, markers)."""
    from packaging.requirements import Requirement

    reqs = []
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            reqs.append(Requirement(line))
    return reqs


def normalize(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def marker_environment(platform: str, python: str) -> dict:
    """PEP 508 marker values for ``python`` (as x.y.0, as uv assumes) on ``platform``."""
    if platform not in PLATFORMS:
        raise ValueError(f"platform must be one of {sorted(PLATFORMS)}, got {platform!r}")
    return {
        **PLATFORMS[platform][1],
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
    }


def expected_pins(platform: str, python: str, path: Path = LOCK) -> dict[str, str]:
    """The lock's pins that apply on ``platform`` with ``python``: {name: version}."""
    env = marker_environment(platform, python)
    pins = {}
    for req in lock_requirements(path):
        if req.marker is None or req.marker.evaluate(env):
            (spec,) = req.specifier
            pins[normalize(req.name)] = spec.version
    return pins


def resolve(platform: str, python: str, path: Path = LOCK) -> dict[str, str]:
    """Ask uv to resolve the lock for ``platform`` and ``python``: {name: version}.

    Raises RuntimeError (with uv's explanation) when a pin has no wheel there.
    """
    target = PLATFORMS[platform][0]
    done = uv(
        "pip", "compile", str(path), "--python-platform", target, "--python-version", python,
        "--no-header", "--no-annotate",  # the result on stdout, uv's report on stderr
        env={"MACOSX_DEPLOYMENT_TARGET": MACOS_MIN},
    )  # fmt: skip
    pins = {}
    for line in done.stdout.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[normalize(name)] = version.split(";")[0].strip()
    return pins


def check_target(platform: str, python: str, path: Path = LOCK) -> str | None:
    """None when the lock resolves on ``platform``/``python`` to exactly its own pins; else why not."""
    try:
        got = resolve(platform, python, path)
    except RuntimeError as error:
        return str(error)
    want = expected_pins(platform, python, path)
    if got == want:
        return None
    missing = sorted(set(got) - set(want))
    differ = sorted(f"{n}: lock {want[n]}, resolved {got[n]}" for n in set(got) & set(want)
                    if got[n] != want[n])  # fmt: skip
    extra = sorted(set(want) - set(got))
    return (
        f"needed there but not in the lock: {missing}; versions that differ: {differ}; "
        f"in the lock for that platform but not needed: {extra}"
    )


def check_all(path: Path = LOCK, targets=TARGETS) -> dict[tuple[str, str], str | None]:
    """check_target for every target, a few at a time (the work is waiting on the registry)."""
    with ThreadPoolExecutor(max_workers=len(targets)) as pool:
        results = pool.map(lambda t: check_target(*t, path), targets)
        return dict(zip(targets, results, strict=True))


def lock_is_current(path: Path = LOCK) -> str | None:
    """None when regenerating the lock from pyproject.toml gives ``path`` again; else the diff."""
    import difflib

    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "requirements.lock"
        shutil.copy(path, fresh)  # its pins are the preferences, as in `make lock`
        compile_lock(fresh)
        old, new = path.read_text().splitlines(), fresh.read_text().splitlines()
    if old == new:
        return None
    return "\n".join(
        difflib.unified_diff(old, new, "requirements.lock", "regenerated", lineterm="")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="resolve the lock everywhere")
    parser.add_argument(
        "--upgrade-package", action="append", default=[], metavar="NAME",
        help="let uv move this package to its newest fitting version (repeatable)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if not args.check:
        extra = [a for name in args.upgrade_package for a in ("--upgrade-package", name)]
        compile_lock(LOCK, extra_args=extra)
        print(f"wrote {LOCK.relative_to(ROOT)} ({len(lock_requirements())} pins)")
        return 0
    failures = 0
    stale = lock_is_current()
    print("pyproject.toml and requirements.lock agree" if stale is None else stale)
    failures += stale is not None
    for (platform, python), problem in check_all().items():
        print(f"{platform:15} Python {python}: {'resolves' if problem is None else problem}")
        failures += problem is not None
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
