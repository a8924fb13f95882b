"""Create or update the course's virtual environment, idempotently.

    python3 tools/setup_env.py [--venv .venv] [--copy-exercises]

* creates ``.venv`` when it is absent (stdlib ``venv``, no conda needed);
* installs the exact pins of ``requirements.lock`` and the package itself
  (editable), then registers the Jupyter kernel ``d2lgpu`` inside the
  environment (``--sys-prefix``), so it never touches your other kernels;
* records a stamp (a hash of the lock and ``pyproject.toml``): a second run
  with the same pins installs nothing;
* with ``--copy-exercises``, copies ``exercises/`` into ``work/`` for the
  learner, file by file, never overwriting a file that is already there.

Runs with the standard library only, before anything is installed.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNEL_NAME = "d2lgpu"
KERNEL_DISPLAY_NAME = "Python 3 (d2lgpu)"
PINNED_FILES = ("requirements.lock", "pyproject.toml")


def pins_hash(root: Path = ROOT) -> str:
    digest = hashlib.sha256()
    for name in PINNED_FILES:
        digest.update(name.encode() + b"\0" + (root / name).read_bytes())
    return digest.hexdigest()


def ensure_venv(venv_dir: Path) -> Path:
    python = venv_dir / "bin" / "python"
    if not python.exists():
        print(f"creating {venv_dir} with {sys.executable} ({sys.version.split()[0]})")
        venv.EnvBuilder(with_pip=True).create(venv_dir)
    return python


def kernel_installed(venv_dir: Path) -> bool:
    return (venv_dir / "share" / "jupyter" / "kernels" / KERNEL_NAME / "kernel.json").exists()


def install(venv_dir: Path, root: Path = ROOT) -> bool:
    """Install the pins into ``venv_dir`` unless its stamp matches; return True if it installed."""
    python = ensure_venv(venv_dir)
    stamp = venv_dir / ".d2lgpu-pins"
    wanted = pins_hash(root)
    if stamp.exists() and stamp.read_text().strip() == wanted and kernel_installed(venv_dir):
        print(f"{venv_dir}: pins unchanged since the last install, nothing to do")
        return False
    print(f"{venv_dir}: installing the pinned versions of requirements.lock (first run: minutes)")
    run = lambda *args: subprocess.run([str(python), *args], check=True, cwd=root)  # noqa: E731
    run("-m", "pip", "install", "--quiet", "-r", "requirements.lock")
    run("-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", ".")
    run(
        "-m", "ipykernel", "install", "--sys-prefix",
        "--name", KERNEL_NAME, "--display-name", KERNEL_DISPLAY_NAME,
    )  # fmt: skip
    stamp.write_text(wanted + "\n")
    print(f"{venv_dir}: ready (kernel '{KERNEL_NAME}' registered inside it)")
    return True


def copy_exercises(src: Path, dst: Path) -> list[Path]:
    """Copy every file of ``src`` into ``dst`` that is not there yet; return the new ones.

    A learner's file is never overwritten: to get a fresh copy of an exercise,
    rename or delete your own first.
    """
    copied = []
    for path in sorted(src.rglob("*")):
        if path.is_dir() or "__pycache__" in path.parts or ".ipynb_checkpoints" in path.parts:
            continue
        target = dst / path.relative_to(src)
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
        copied.append(target)
    return copied


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", default=".venv", help="environment folder (default: .venv)")
    parser.add_argument(
        "--copy-exercises", action="store_true", help="copy exercises/ into work/ (no overwrite)"
    )
    args = parser.parse_args(argv)
    if sys.version_info < (3, 11):  # noqa: UP036 (runs on the system Python, before the venv)
        print(f"the course needs Python 3.11 or newer; this is {sys.version.split()[0]}")
        return 1
    install((ROOT / args.venv) if not Path(args.venv).is_absolute() else Path(args.venv))
    if args.copy_exercises:
        new = copy_exercises(ROOT / "exercises", ROOT / "work")
        kept = "; your existing files were kept" if (ROOT / "work").exists() else ""
        print(f"work/: {len(new)} new exercise file(s) copied{kept}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
