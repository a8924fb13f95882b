"""The set-up cell that opens every chapter, solution and exercise notebook, written once, here.

    .venv/bin/python tools/setup_cell.py --write   # insert or update it in notebooks/ and solutions/
    .venv/bin/python tools/setup_cell.py --check   # exit 1 naming the notebooks whose cell is missing or stale

On Colab or Kaggle the course's package is not installed. The cell installs it there,
beside the torch the runtime already has. Where ``d2lgpu`` is importable (``make lab``,
CI, nbval) it returns at once and prints nothing. Elsewhere it:

* refuses a torch older than the floor in ``pyproject.toml`` (or none at all) with a
  message naming both, raising so that the notebook stops there;
* pins the torch and torchvision already installed in a pip constraints file, so that
  pip can never replace them, whatever d2lgpu's own ranges allow;
* installs the package: from ``$D2LGPU_WHEEL`` where that names a wheel (the course's
  own test, tests/test_colab_install.py), else from a clone at ``./d2lgpu-course`` where
  one is (a local copy), else from a shallow clone of ``repository=`` (the configured
  repository, or a fork's URL written there), installed editable. The chapters read files of the repository beside the
  package (``scripts/`` for chapters 5 and 10, the GPU references in ``docs/results/``
  that a GPU cell shows on a CPU), so a clone is what makes them reachable;
  FashionMNIST is downloaded by the chapter itself, as on any machine;
* when the clone or pip fails, says so in one line, without a traceback (IPython shows an
  exception's ``_render_traceback_``), naming the cause and the remedies: the network
  (Kaggle's Internet switch), a local clone at ``./d2lgpu-course``, a fork's URL in
  ``repository=``. The package cannot be imported before the clone, so those messages
  live in the cell's own text.

Its source is made from pyproject.toml (the repository URL of ``[project.urls]``, the
torch floor of ``dependencies``), so a fork or a new floor changes that file and then
runs ``--write``. The cell binds one name, ``_setup_d2lgpu``, and deletes it, failed or
not: it binds nothing a GPU cell reads, so the keys of the GPU references
(:func:`d2lgpu.references.cell_key`) do not change. It is tagged ``setup``, has cell id
``setup``, and a Jupyter that opens the course's notebooks shows it collapsed
(``"jupyter": {"source_hidden": true}``). The lab of ``make lab`` opens the learner's copies
in work/, where d2lgpu is installed and the installer has nothing to do: there
tools/work_copies.py writes ``LAB_SOURCE``, two lines of comment that say so. ``exercises/`` is generated from ``solutions/``
(``make exercises``), which keeps the cell; ``--check`` looks at exercises/ too.
"""

from __future__ import annotations

import argparse
import copy
import sys
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import nbformat

# nbformat, packaging and d2lgpu are imported where they are used: tools/work_copies.py,
# which runs with the system's Python before anything is installed, reads LAB_SOURCE here.
ROOT = Path(__file__).resolve().parent.parent

CELL_ID = "setup"
TAG = "setup"
FUNCTION = "_setup_d2lgpu"
WHEEL_ENV_VAR = "D2LGPU_WHEEL"
CLONE_DIR = "d2lgpu-course"
WRITTEN = ("notebooks", "solutions")  # --write; exercises/ follows with `make exercises`
CHECKED = ("notebooks", "solutions", "exercises")

TEMPLATE = """\
# Set-up for Colab and Kaggle: installs the course package, d2lgpu, beside the torch
# already there. Where d2lgpu is installed (`make lab`), it does nothing.
def {function}(repository="{repository}", torch_floor={floor!r}):
    # this function's own names, whatever a later cell imports (F811 assumes one namespace)
    import os  # noqa: F811
    import subprocess  # noqa: F811
    import sys  # noqa: F811
    import tempfile  # noqa: F811
    from importlib import invalidate_caches, metadata, util

    class SetupError(RuntimeError):
        def _render_traceback_(self):  # IPython shows this one line instead of a traceback
            return [f"d2lgpu set-up: {{self}}"]

    if util.find_spec("d2lgpu") is not None:
        return
    need = "torch >= " + ".".join(map(str, torch_floor))
    if util.find_spec("torch") is None:
        raise SetupError(f"this course needs {{need}}, and torch is not installed")
    have = metadata.version("torch")
    if tuple(int(n) for n in have.split(".")[:2]) < torch_floor:
        raise SetupError(
            f"this course needs {{need}}; this runtime has torch {{have}}. Install a newer "
            "torch and its torchvision, restart the runtime and run this cell again"
        )
    checkout = os.path.abspath("{clone_dir}")
    remedy = (
        "No network? Connect, or on Kaggle turn Internet on in the notebook's settings, and "
        f"run this cell again; or put a clone of the course at {{checkout}}; or, for a fork, set "
        'repository="https://github.com/you/d2lgpu" in this cell'
    )

    def run(command, what):  # one line saying why, not a traceback, when it fails
        try:
            done = subprocess.run(command, capture_output=True, text=True)
        except OSError as error:  # no git here, say
            raise SetupError(f"{{what}} failed ({{error}}). {{remedy}}") from None
        if done.returncode:  # the cause: the last error line, not pip's closing "note:"
            said = [s.strip() for s in (done.stderr or done.stdout).splitlines() if s.strip()]
            errors = [s for s in said if s.startswith(("ERROR:", "fatal:"))]
            cause = (errors or said or [f"exit status {{done.returncode}}"])[-1]
            raise SetupError(f"{{what}} failed ({{cause}}). {{remedy}}")

    if os.environ.get("{wheel_var}"):  # a wheel's path: the course's own test
        target = [os.environ["{wheel_var}"]]
    else:  # a clone: the chapters read its scripts/ and docs/results/ too
        if not os.path.isdir(checkout):
            run(["git", "clone", "--depth", "1", repository, checkout], f"git clone {{repository}}")
        target = ["-e", checkout]
        sys.path.insert(0, checkout)
    with tempfile.TemporaryDirectory() as folder:  # pip may not replace the torch here
        pins = os.path.join(folder, "pins.txt")
        with open(pins, "w") as out:
            for name in ("torch", "torchvision"):
                if util.find_spec(name) is not None:
                    out.write(f"{{name}}=={{metadata.version(name)}}\\n")
        pip = [sys.executable, "-m", "pip", "install", "--quiet", "--constraint", pins]
        run([*pip, *target], "pip install " + target[-1])
    invalidate_caches()
    print(f"installed d2lgpu {{metadata.version('d2lgpu')}} beside torch {{have}}")


try:
    {function}()
finally:  # a failure too leaves no name behind
    del {function}
"""

# The cell as the learner's copies in work/ hold it (tools/work_copies.py writes it there).
# Under `make lab` d2lgpu is installed, so the installer above would return at once; the lab
# shows these comments instead: at most 3 lines, binding no name.
LAB_SOURCE = """\
# Set-up: on Colab and Kaggle this cell installs the course package, d2lgpu (the course's own
# notebooks/ hold that installer). Under `make lab` d2lgpu is installed: nothing to run here."""

# A Jupyter that opens notebooks/ shows the cell collapsed (the book leaves it out, by its tag).
METADATA = {"tags": [TAG], "jupyter": {"source_hidden": True}}


def torch_floor(pyproject: Path = ROOT / "pyproject.toml") -> tuple[int, int]:
    """``(major, minor)`` of the ``torch>=X.Y`` in pyproject.toml's ``dependencies``."""
    from packaging.requirements import Requirement

    for line in tomllib.loads(pyproject.read_text())["project"]["dependencies"]:
        req = Requirement(line)
        if req.name == "torch":
            for spec in req.specifier:
                if spec.operator == ">=":
                    major, minor = spec.version.split(".")[:2]
                    return int(major), int(minor)
    raise ValueError(f"{pyproject} must give torch a floor, like torch>=2.11, in dependencies")


def repository_url(pyproject: Path = ROOT / "pyproject.toml") -> str:
    """The course's repository URL, from ``pyproject``: :func:`d2lgpu.links.repository_url`."""
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))  # d2lgpu from this checkout where none is installed
    from d2lgpu.links import repository_url as from_pyproject

    return from_pyproject(pyproject)


def cell_source(pyproject: Path = ROOT / "pyproject.toml") -> str:
    """The set-up cell's source, made from ``pyproject``'s repository URL and torch floor."""
    return TEMPLATE.format(
        function=FUNCTION,
        repository=repository_url(pyproject),
        floor=torch_floor(pyproject),
        wheel_var=WHEEL_ENV_VAR,
        clone_dir=CLONE_DIR,
    ).rstrip("\n")


def new_cell(source: str) -> nbformat.NotebookNode:
    import nbformat

    cell = nbformat.v4.new_code_cell(source)
    cell.id = CELL_ID
    cell.metadata.update(copy.deepcopy(METADATA))
    return cell


def _first_code(nb) -> int | None:
    return next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), None)


def problem(path: Path, source: str) -> str | None:
    """What is wrong with ``path``'s set-up cell, or None when it is there and current."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    found = [i for i, c in enumerate(nb.cells) if TAG in c.metadata.get("tags", [])]
    if not found:
        return f"{path}: no set-up cell (a code cell tagged {TAG!r})"
    if len(found) > 1:
        return f"{path}: {len(found)} set-up cells, cells {found}; keep one"
    cell = nb.cells[found[0]]
    if found[0] != _first_code(nb):
        return f"{path}: the set-up cell is cell {found[0]}, not the first code cell"
    if cell.source != source:
        return f"{path}: the set-up cell differs from what tools/setup_cell.py writes"
    if {k: cell.metadata.get(k) for k in METADATA} != METADATA:
        return f"{path}: the set-up cell's metadata is not {METADATA} (collapsed where opened)"
    if cell.outputs:
        return f"{path}: the set-up cell has outputs; where d2lgpu is installed it prints nothing"
    return None


def write(path: Path, source: str) -> bool:
    """Insert or update the set-up cell of ``path``; True when the file changed."""
    import nbformat

    if problem(path, source) is None:
        return False
    nb = nbformat.read(path, as_version=4)
    found = [i for i, c in enumerate(nb.cells) if TAG in c.metadata.get("tags", [])]
    if found == [_first_code(nb)]:  # in place: its execution count stays what make outputs wrote
        cell = nb.cells[found[0]]
        cell.id, cell.source, cell.outputs = CELL_ID, source, []
        cell.metadata.update(copy.deepcopy(METADATA))
    else:
        nb.cells = [c for c in nb.cells if TAG not in c.metadata.get("tags", [])]
        first = _first_code(nb)
        nb.cells.insert(len(nb.cells) if first is None else first, new_cell(source))
    nbformat.validate(nb)
    text = nbformat.writes(nb)
    path.write_text(text if text.endswith("\n") else text + "\n")
    return True


def notebooks(root: Path, folders: tuple[str, ...]) -> list[Path]:
    return [p for folder in folders for p in sorted((root / folder).glob("*.ipynb"))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"insert or update it in {WRITTEN}")
    mode.add_argument("--check", action="store_true", help="exit 1 naming stale notebooks")
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="the course checkout (default: %(default)s)"
    )
    args = parser.parse_args(argv)
    source = cell_source(args.root / "pyproject.toml")
    if args.write:
        for path in notebooks(args.root, WRITTEN):
            if write(path, source):
                print(f"wrote {path}")
        print("now run `make exercises`, which copies the cell into exercises/")
        return 0
    problems = [p for p in (problem(path, source) for path in notebooks(args.root, CHECKED)) if p]
    for line in problems:
        print(line)
    if problems:
        print(
            "set-up cells are missing or stale: run tools/setup_cell.py --write, then `make exercises`"
        )
        return 1
    print("every notebook opens with the current set-up cell")
    return 0


if __name__ == "__main__":
    sys.exit(main())
