"""Create or update the course's virtual environment, and the learner's copies in work/.

    python3 tools/setup_env.py [--venv .venv] [--copy-work]
    .venv/bin/python tools/setup_env.py --venv .venv-floor --torch-floor

* creates ``.venv`` when it is absent (stdlib ``venv``, no conda needed);
* installs the exact pins of ``requirements.lock`` and the package itself
  (editable), showing pip's progress, then registers the Jupyter kernel
  ``d2lgpu`` inside the environment (``--sys-prefix``), so it never touches
  your other kernels; turns off JupyterLab's news and update checks there;
* records a stamp (a hash of the lock and ``pyproject.toml``): a second run
  with the same pins installs nothing and prints nothing;
* while pip works, says every 15 s what it is doing when pip itself says
  nothing (unpacking PyTorch's 6 GB prints no line for minutes;
  ``tools/pip_heartbeat.py``);
* with ``--copy-work``, gives the learner their own copies in ``work/``
  (``tools/work_copies.py``): ``work/chapters/``, ``work/exercises/``,
  ``work/solutions/``. A learner's changes are never overwritten; when the
  course's version of a file changes, an unchanged copy follows it and a
  changed one is kept, and the learner is told once. A copy open in a
  JupyterLab that runs over ``work/`` is left as it is, and the learner told
  that it waits for the update.
* with ``--torch-floor`` (``make test-floor``), builds the same environment with
  the oldest torch the course supports instead of the lock's: the floor of
  ``pyproject.toml`` (``torch>=2.11``: ``torch==2.11.*``) and its torchvision
  (``0.26.*``), CPU wheels from PyTorch's own index where it can be reached,
  else PyPI's wheels. The lock's other pins are kept where they fit the older
  torch (:func:`install_floor`). It installs with uv, which ``make setup`` puts
  in ``.venv``.

Runs with the standard library only, before anything is installed (except
``--torch-floor``, which runs with ``.venv``'s Python).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

import work_copies
from pip_heartbeat import run_with_heartbeat

ROOT = Path(__file__).resolve().parent.parent
KERNEL_NAME = "d2lgpu"
KERNEL_DISPLAY_NAME = "Python 3 (d2lgpu)"
PINNED_FILES = ("requirements.lock", "pyproject.toml")


def pins_hash(root: Path = ROOT) -> str:
    digest = hashlib.sha256()
    for name in PINNED_FILES:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes())
    return digest.hexdigest()


def venv_python(venv_dir: Path, *, windows: bool = os.name == "nt") -> Path:
    """The environment's Python: ``Scripts\\python.exe`` on Windows, ``bin/python`` elsewhere."""
    return venv_dir / "Scripts" / "python.exe" if windows else venv_dir / "bin" / "python"


def ensure_venv(venv_dir: Path) -> Path:
    python = venv_python(venv_dir)
    if not python.exists():
        print(f"creating {venv_dir} with {sys.executable} ({sys.version.split()[0]})")
        venv.EnvBuilder(with_pip=True).create(venv_dir)
    return python


def kernel_installed(venv_dir: Path) -> bool:
    return (venv_dir / "share" / "jupyter" / "kernels" / KERNEL_NAME / "kernel.json").exists()


# JupyterLab's own defaults for every user of this environment: no toast asking about
# Jupyter news over the first notebook, no request to a website, and a file browser whose
# names are not cut off at its default width (no "last modified" column beside them).
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/filebrowser-extension:browser": {"showLastModifiedColumn": False},
}


def lab_settings(autosave_s: int | None = None) -> dict:
    """The settings above; ``autosave_s`` sets how often JupyterLab autosaves, 0: never (for
    a test)."""
    if autosave_s is None:
        return LAB_SETTINGS
    saves = {"autosave": False} if autosave_s == 0 else {"autosaveInterval": autosave_s}
    docs = {"@jupyterlab/docmanager-extension:plugin": saves}
    return {**LAB_SETTINGS, **docs}


def write_lab_settings(venv_dir: Path, settings_dir: Path | None = None, **options) -> bool:
    """Write JupyterLab's ``overrides.json`` into the environment; True if it changed."""
    folder = settings_dir or venv_dir / "share" / "jupyter" / "lab" / "settings"
    path = folder / "overrides.json"
    text = json.dumps(lab_settings(**options), indent=2) + "\n"
    if path.exists() and path.read_text() == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return True


def install(venv_dir: Path, root: Path = ROOT, *, torch_floor: bool = False) -> bool:
    """Install the pins into ``venv_dir`` unless its stamp matches; return True if it installed.

    Silent when there is nothing to do. pip's own progress is shown: the first
    install downloads PyTorch, on Linux with its CUDA libraries (about 5 GB).
    ``torch_floor``: torch and torchvision at the course's floor instead of the
    lock's (:func:`install_floor`), installed with uv.
    """
    python = ensure_venv(venv_dir)
    write_lab_settings(venv_dir)
    stamp = venv_dir / ".d2lgpu-pins"
    wanted = pins_hash(root) + (" torch-floor" if torch_floor else "")
    if stamp.exists() and stamp.read_text().strip() == wanted and kernel_installed(venv_dir):
        return False
    run = lambda *args: subprocess.run([str(python), *args], check=True, cwd=root)  # noqa: E731
    if torch_floor:
        install_floor(python, venv_dir)
    else:
        install_lock(python, venv_dir, root)
    run("-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", ".")
    run(
        "-m", "ipykernel", "install", "--sys-prefix",
        "--name", KERNEL_NAME, "--display-name", KERNEL_DISPLAY_NAME,
    )  # fmt: skip
    stamp.write_text(wanted + "\n")
    print(f"{venv_dir}: ready (kernel '{KERNEL_NAME}' registered inside it)")
    return True


def install_lock(python: Path, venv_dir: Path, root: Path = ROOT) -> None:
    """``pip install -r requirements.lock``, its progress shown."""
    print(
        f"{venv_dir}: installing the versions pinned in requirements.lock. The first time,"
        " this downloads PyTorch (on Linux with its CUDA libraries, about 5 GB): minutes."
    )
    pip = [str(python), "-m", "pip", "install", "--progress-bar", "on", "-r", "requirements.lock"]
    code = run_with_heartbeat(pip, cwd=root, venv_dir=venv_dir)
    if code:
        raise subprocess.CalledProcessError(code, pip)


# PyTorch's index of CPU-only wheels: torch without its CUDA libraries (200 MB, not 4 GB).
CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def floor_versions(root: Path = ROOT) -> tuple[str, str]:
    """``("2.11", "0.26")``: the torch floor of ``pyproject.toml`` and its torchvision.

    torchvision's minor version is torch's plus 15 (torch 2.0 came with 0.15,
    2.11 with 0.26), as ``pyproject.toml``'s own ``torchvision>=0.26`` says.
    """
    from setup_cell import torch_floor  # needs packaging: runs with .venv's Python

    major, minor = torch_floor(root / "pyproject.toml")
    return f"{major}.{minor}", f"0.{minor + 15}"


def reachable(url: str, timeout_s: float = 10.0) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=timeout_s):
            return True
    except OSError:
        return False


def install_floor(python: Path, venv_dir: Path) -> None:
    """Resolve the lock again with torch and torchvision at the floor, and install it.

    ``tools/lock.py`` resolves pyproject.toml as ``make lock`` does, into a copy of
    requirements.lock, whose pins uv keeps wherever they fit the older torch (what
    torch 2.11 pins itself, like ``setuptools<82`` and its CUDA libraries, moves).
    The result is kept as ``requirements-floor.txt`` in the environment.
    """
    import lock  # tools/lock.py: needs packaging, runs with .venv's Python

    torch, torchvision = floor_versions()
    backend = []
    where = f"PyPI's wheels ({CPU_INDEX} cannot be reached; on Linux with CUDA, about 4 GB)"
    if reachable(f"{CPU_INDEX}/torch/"):
        backend, where = ["--torch-backend", "cpu"], "CPU wheels from " + CPU_INDEX
    print(f"{venv_dir}: torch {torch}.* and torchvision {torchvision}.*, {where}")
    floor_lock = venv_dir / "requirements-floor.txt"
    floor_lock.write_text(lock.LOCK.read_text())  # the pins uv keeps where they fit
    with tempfile.TemporaryDirectory() as folder:
        floor = Path(folder) / "torch-floor.txt"
        floor.write_text(f"torch=={torch}.*\ntorchvision=={torchvision}.*\n")
        lock.compile_lock(floor_lock, extra_args=["--constraint", str(floor), *backend])
    install = [*lock.uv_command(), "pip", "install", "--python", str(python), *backend]
    subprocess.run([*install, "-r", str(floor_lock)], check=True, cwd=ROOT)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", default=".venv", help="environment folder (default: .venv)")
    parser.add_argument(
        "--copy-work",
        action="store_true",
        help="copy the chapters, exercises and solutions into work/ (never overwriting your changes)",
    )
    parser.add_argument(
        "--torch-floor",
        action="store_true",
        help="torch and torchvision at pyproject.toml's floor instead of the lock's (make test-floor)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if sys.version_info < (3, 11):  # noqa: UP036 (runs on the system Python, before the venv)
        print(f"the course needs Python 3.11 or newer; this is {sys.version.split()[0]}")
        return 1
    venv_dir = (ROOT / args.venv) if not Path(args.venv).is_absolute() else Path(args.venv)
    install(venv_dir, torch_floor=args.torch_floor)
    if args.copy_work:
        # a copy open in a running lab is never written under its tab
        open_tabs = work_copies.open_in_lab(ROOT / "work", venv_python(venv_dir))
        outcome = work_copies.sync_work(ROOT, open_tabs=open_tabs)
        for line in work_copies.describe(outcome):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
