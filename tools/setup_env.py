"""Create or update the course's virtual environment, and the learner's copies in work/.

    python3 tools/setup_env.py [--venv .venv] [--copy-work]

* creates ``.venv`` when it is absent (stdlib ``venv``, no conda needed);
* installs the exact pins of ``requirements.lock`` and the package itself
  (editable), showing pip's progress, then registers the Jupyter kernel
  ``d2lgpu`` inside the environment (``--sys-prefix``), so it never touches
  your other kernels; turns off JupyterLab's news and update checks there;
* records a stamp (a hash of the lock and ``pyproject.toml``): a second run
  with the same pins installs nothing and prints nothing;
* with ``--copy-work``, gives the learner their own copies in ``work/`` (see
  :func:`sync_work`): the chapters as ``work/chapter_NN_name.ipynb``, the
  exercises under their own names. A learner's copy is never overwritten; when
  the course's version of a file changes, an untouched copy is updated and a
  changed one is kept, and the learner is told.

Runs with the standard library only, before anything is installed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
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


# JupyterLab's own defaults for every user of this environment: no toast asking
# about Jupyter news over the first notebook, and no request to a website.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}
}


def write_lab_settings(venv_dir: Path) -> bool:
    """Write JupyterLab's ``overrides.json`` into the environment; True if it changed."""
    path = venv_dir / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    text = json.dumps(LAB_SETTINGS, indent=2) + "\n"
    if path.exists() and path.read_text() == text:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return True


def install(venv_dir: Path, root: Path = ROOT) -> bool:
    """Install the pins into ``venv_dir`` unless its stamp matches; return True if it installed.

    Silent when there is nothing to do. pip's own progress is shown: the first
    install downloads PyTorch, on Linux with its CUDA libraries (about 5 GB).
    """
    python = ensure_venv(venv_dir)
    write_lab_settings(venv_dir)
    stamp = venv_dir / ".d2lgpu-pins"
    wanted = pins_hash(root)
    if stamp.exists() and stamp.read_text().strip() == wanted and kernel_installed(venv_dir):
        return False
    print(
        f"{venv_dir}: installing the versions pinned in requirements.lock. The first time,"
        " this downloads PyTorch (on Linux with its CUDA libraries, about 5 GB): minutes."
    )
    run = lambda *args: subprocess.run([str(python), *args], check=True, cwd=root)  # noqa: E731
    run("-m", "pip", "install", "--progress-bar", "on", "-r", "requirements.lock")
    run("-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", ".")
    run(
        "-m", "ipykernel", "install", "--sys-prefix",
        "--name", KERNEL_NAME, "--display-name", KERNEL_DISPLAY_NAME,
    )  # fmt: skip
    stamp.write_text(wanted + "\n")
    print(f"{venv_dir}: ready (kernel '{KERNEL_NAME}' registered inside it)")
    return True


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def course_files(root: Path = ROOT) -> dict[str, Path]:
    """``{name in work/: course file}``: the chapters as ``chapter_<name>``, the exercises as is.

    The chapters' copies keep their folder depth (``work/`` is next to
    ``notebooks/``), so their relative paths (``../scripts``) still work.
    """
    files = {f"chapter_{p.name}": p for p in sorted((root / "notebooks").glob("*.ipynb"))}
    for path in sorted((root / "exercises").rglob("*")):
        skip = "__pycache__" in path.parts or ".ipynb_checkpoints" in path.parts
        if path.is_file() and not skip:
            files[path.relative_to(root / "exercises").as_posix()] = path
    return files


MANIFEST = ".course-copies.json"  # in work/: the course version each copy was made from


def sync_work(root: Path = ROOT, work: Path | None = None) -> dict[str, list[str]]:
    """Bring ``work/`` up to date with the course, never losing a learner's file.

    For each course file (:func:`course_files`), with the version each copy was
    made from recorded in ``work/.course-copies.json``:

    * no copy yet: copy it (``"copied"``);
    * the course's file changed since the copy was made, and the copy is as it
      was made: replace it with the new version (``"updated"``);
    * the course's file changed and the learner changed the copy: keep the
      copy as it is (``"newer"``: the learner is told where the new one is);
    * otherwise nothing.

    A copy made before this record existed counts as the learner's own, from
    the course's current version. Returns the names in ``work/`` per outcome.
    """
    work = root / "work" if work is None else work
    record_path = work / MANIFEST
    record = json.loads(record_path.read_text()) if record_path.exists() else {}
    outcome: dict[str, list[str]] = {"copied": [], "updated": [], "newer": [], "kept": []}
    for name, source in course_files(root).items():
        target, course = work / name, file_hash(source)
        made_from = record.get(name)
        if not target.exists():
            status = "copied"
        elif made_from is None:  # a copy from before the record: the learner's, unknown origin
            record[name], status = course, "kept"
        elif made_from == course:
            status = "kept"
        elif file_hash(target) == made_from:
            status = "updated"
        else:
            status = "newer"
        if status in ("copied", "updated"):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
            record[name] = course
        outcome[status].append(name)
    if record:
        work.mkdir(exist_ok=True)
        record_path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    return outcome


def describe(outcome: dict[str, list[str]], root: Path = ROOT) -> list[str]:
    """What :func:`sync_work` did, in plain words; no line when it did nothing."""
    lines = []
    copied, updated, newer = outcome["copied"], outcome["updated"], outcome["newer"]
    if copied:
        chapters = sum(n.startswith("chapter_") for n in copied)
        what = ", ".join(
            f"{count} {noun}{'' if count == 1 else 's'}"
            for count, noun in ((chapters, "chapter"), (len(copied) - chapters, "exercise file"))
            if count
        )
        kept = len(outcome["kept"]) + len(newer)
        lines.append(
            f"work/: copied {what} for you to edit and save"
            + (f"; your {kept} other copies are kept as they are" if kept else "")
        )
    for name in updated:
        lines.append(f"work/{name}: updated to the course's new version (you had not changed it)")
    files = course_files(root)
    for name in newer:
        source = files[name].relative_to(root).as_posix()
        lines.append(
            f"work/{name}: the course's version ({source}) is newer; yours is kept. "
            f"To start again from the new one, rename yours and run this again."
        )
    return lines


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", default=".venv", help="environment folder (default: .venv)")
    parser.add_argument(
        "--copy-work",
        action="store_true",
        help="copy the chapters and exercises into work/ (never overwriting your changes)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if sys.version_info < (3, 11):  # noqa: UP036 (runs on the system Python, before the venv)
        print(f"the course needs Python 3.11 or newer; this is {sys.version.split()[0]}")
        return 1
    install((ROOT / args.venv) if not Path(args.venv).is_absolute() else Path(args.venv))
    if args.copy_work:
        for line in describe(sync_work(ROOT)):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
