"""tools/setup_cell.py: the set-up cell of every notebook, on copies of the notebooks.

The real notebooks get the cell from ``tools/setup_cell.py --write``; these tests write it
into copies, check what ``--check`` says, that GPU references keep their keys, that
``make exercises`` keeps the cell, and what the cell does with a torch too old or missing.
"""

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from d2lgpu import references

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import make_exercises  # noqa: E402
import setup_cell  # noqa: E402

SOURCE = setup_cell.cell_source()


def course_copy(tmp_path, names=("01_devices.ipynb", "02_tensors.ipynb")):
    """pyproject.toml and a few notebooks of each folder, in ``tmp_path``, as they were before
    the set-up cell: without it."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for folder in setup_cell.CHECKED:
        (tmp_path / folder).mkdir()
        for name in names:
            nb = nbformat.read(ROOT / folder / name, as_version=4)
            nb.cells = [c for c in nb.cells if "setup" not in c.metadata.get("tags", [])]
            nbformat.write(nb, tmp_path / folder / name)
    return tmp_path


def gpu_keys(path):
    cells = nbformat.read(path, as_version=4).cells
    return {
        c.id: references.cell_key(c.source, references.earlier_sources(cells, c.id))
        for c in cells
        if c.cell_type == "code" and c.source.lstrip().startswith(references.MAGIC)
    }


def run_main(*args):
    return setup_cell.main(list(args))


def test_the_source_comes_from_pyproject(tmp_path):
    assert 'repository="https://github.com/' in SOURCE and "torch_floor=(2, 11)" in SOURCE
    text = (ROOT / "pyproject.toml").read_text()
    text = text.replace(setup_cell.repository_url(), "https://github.com/me/fork")
    (tmp_path / "pyproject.toml").write_text(text.replace('"torch>=2.11"', '"torch>=2.12"'))
    forked = setup_cell.cell_source(tmp_path / "pyproject.toml")
    assert 'repository="https://github.com/me/fork"' in forked and "(2, 12)" in forked


def test_a_pyproject_without_a_torch_floor_is_refused(tmp_path):
    text = (ROOT / "pyproject.toml").read_text().replace('"torch>=2.11"', '"torch"')
    (tmp_path / "pyproject.toml").write_text(text)
    with pytest.raises(ValueError, match="must give torch a floor"):
        setup_cell.torch_floor(tmp_path / "pyproject.toml")


def test_check_names_each_notebook_without_the_cell_and_write_fixes_them(tmp_path, capsys):
    root = course_copy(tmp_path)
    assert run_main("--check", "--root", str(root)) == 1
    out = capsys.readouterr().out
    for folder in setup_cell.CHECKED:
        assert f"{root / folder / '01_devices.ipynb'}: no set-up cell" in out
    assert run_main("--write", "--root", str(root)) == 0
    assert "make exercises" in capsys.readouterr().out
    # exercises/ follows from solutions/, as `make exercises` writes it
    for path in (root / "solutions").glob("*.ipynb"):
        (root / "exercises" / path.name).write_text(make_exercises.exercise_notebook(path))
    assert run_main("--check", "--root", str(root)) == 0
    # a second --write changes nothing
    before = {p: p.read_text() for p in root.glob("*/*.ipynb")}
    run_main("--write", "--root", str(root))
    assert before == {p: p.read_text() for p in root.glob("*/*.ipynb")}


def test_the_cell_is_the_first_code_cell_tagged_and_empty(tmp_path):
    root = course_copy(tmp_path)
    path = root / "notebooks" / "02_tensors.ipynb"
    old = nbformat.read(path, as_version=4)
    setup_cell.write(path, SOURCE)
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code[0].source == SOURCE and code[0].id == "setup"
    assert code[0].metadata["tags"] == ["setup"] and code[0].outputs == []
    # everything else as it was, ids included
    assert [(c.id, c.source) for c in nb.cells if c.id != "setup"] == [
        (c.id, c.source) for c in old.cells
    ]
    assert nb.cells[0].cell_type == "markdown"  # the title stays on top


def test_check_finds_a_stale_a_moved_and_a_doubled_cell(tmp_path, capsys):
    root = course_copy(tmp_path, names=("01_devices.ipynb",))
    path = root / "notebooks" / "01_devices.ipynb"
    setup_cell.write(path, SOURCE)
    assert setup_cell.problem(path, SOURCE) is None
    text = (root / "pyproject.toml").read_text()
    (root / "pyproject.toml").write_text(text.replace('"torch>=2.11"', '"torch>=2.12"'))
    run_main("--check", "--root", str(root))
    assert f"{path}: the set-up cell differs" in capsys.readouterr().out
    nb = nbformat.read(path, as_version=4)
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    nb.cells.insert(code[1] + 1, nb.cells.pop(code[0]))
    nbformat.write(nb, path)
    assert "not the first code cell" in setup_cell.problem(path, SOURCE)
    nb.cells.insert(0, setup_cell.new_cell(SOURCE))
    nb.cells[0].id = "setup-2"
    nbformat.write(nb, path)
    assert "2 set-up cells" in setup_cell.problem(path, SOURCE)


def test_the_cell_keeps_the_key_of_every_gpu_reference(tmp_path):
    names = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    root = course_copy(tmp_path, names=names)
    checked = 0
    for folder in setup_cell.WRITTEN:
        for path in sorted((root / folder).glob("*.ipynb")):
            before = gpu_keys(path)
            setup_cell.write(path, SOURCE)
            assert gpu_keys(path) == before, path
            checked += len(before)
    assert checked > 20
    # the comparison can fail: a cell that read a name the set-up cell binds would change key
    body = "%%requires_gpu\nprint(_setup_d2lgpu)"
    assert references.cell_key(body, [SOURCE]) != references.cell_key(body, [])


def test_make_exercises_keeps_the_cell(tmp_path):
    path = tmp_path / "04_amp.ipynb"
    shutil.copy(ROOT / "solutions" / "04_amp.ipynb", path)
    setup_cell.write(path, SOURCE)
    (tmp_path / "ex.ipynb").write_text(make_exercises.exercise_notebook(path))
    exercise = nbformat.read(tmp_path / "ex.ipynb", as_version=4)
    first = next(c for c in exercise.cells if c.cell_type == "code")
    assert (first.id, first.source, first.metadata["tags"]) == ("setup", SOURCE, ["setup"])


def test_every_notebook_with_the_cell_passes_ruff(tmp_path):
    # ruff reads a notebook as one module: the cell's names must not clash with a later cell's
    ruff = shutil.which("ruff", path=os.path.dirname(sys.executable))
    if ruff is None:
        pytest.skip("ruff is not installed next to this Python (the dev extra has it)")
    root = course_copy(tmp_path, names=sorted(p.name for p in (ROOT / "solutions").glob("*.ipynb")))
    paths = setup_cell.notebooks(root, setup_cell.CHECKED)
    for path in paths:
        setup_cell.write(path, SOURCE)
    for args in (["check"], ["format", "--check"]):
        config = ["--config", str(ROOT / "pyproject.toml")]
        done = subprocess.run(
            [ruff, *args, *config, *map(str, paths)], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_cell_leaves_no_file_behind():
    # tests/test_notebooks.py's rule for the course's code: tempfile.TemporaryDirectory only
    assert "tempfile.TemporaryDirectory()" in SOURCE
    assert not any(word in SOURCE for word in ("mkdtemp", "mkstemp", "mktemp", "delete=False"))


# What the cell does, run in this process with importlib and subprocess faked.


class Runtime:
    """A pretend Colab: which packages are installed, their versions, the commands run."""

    def __init__(self, monkeypatch, installed):
        self.installed, self.commands, self.constraints = installed, [], None
        real_find_spec = importlib.util.find_spec

        def find_spec(name, *args):
            if name in ("d2lgpu", "torch", "torchvision"):
                return object() if name in self.installed else None
            return real_find_spec(name, *args)

        def version(name):
            if name not in self.installed:
                raise importlib.metadata.PackageNotFoundError(name)
            return self.installed[name]

        def run(cmd, check):
            assert check
            self.commands.append(cmd)
            if "--constraint" in cmd:
                self.constraints = Path(cmd[cmd.index("--constraint") + 1]).read_text()
                self.installed["d2lgpu"] = "0.1.0"

        monkeypatch.setattr(importlib.util, "find_spec", find_spec)
        monkeypatch.setattr(importlib.metadata, "version", version)
        monkeypatch.setattr(subprocess, "run", run)
        monkeypatch.setattr(sys, "path", list(sys.path))

    def run_cell(self):
        namespace = {}
        exec(SOURCE, namespace)
        return namespace


def test_where_d2lgpu_is_installed_the_cell_does_nothing(monkeypatch, capsys):
    colab = Runtime(monkeypatch, {"d2lgpu": "0.1.0", "torch": "2.14.1"})
    namespace = colab.run_cell()
    assert colab.commands == [] and capsys.readouterr().out == ""
    assert setup_cell.FUNCTION not in namespace  # it binds nothing the notebook keeps


@pytest.mark.parametrize(
    "installed, message",
    [
        ({}, r"this course needs torch >= 2\.11, and torch is not installed"),
        (
            {"torch": "2.10.0+cu126"},
            r"needs torch >= 2\.11; this runtime has torch 2\.10\.0\+cu126\. Install a newer",
        ),
        ({"torch": "1.13.1"}, r"this runtime has torch 1\.13\.1"),
    ],
)
def test_a_missing_or_older_torch_stops_the_notebook(monkeypatch, installed, message):
    colab = Runtime(monkeypatch, installed)
    with pytest.raises(RuntimeError, match=message):
        colab.run_cell()
    assert colab.commands == []


def test_a_wheel_installs_with_the_torch_there_pinned(monkeypatch, capsys, tmp_path):
    colab = Runtime(monkeypatch, {"torch": "2.11.0+cu126", "torchvision": "0.26.0+cu126"})
    monkeypatch.setenv("D2LGPU_WHEEL", str(tmp_path / "d2lgpu-0.1.0-py3-none-any.whl"))
    colab.run_cell()
    (pip,) = colab.commands
    assert pip[:4] == [sys.executable, "-m", "pip", "install"]
    assert pip[-1] == str(tmp_path / "d2lgpu-0.1.0-py3-none-any.whl")
    assert colab.constraints == "torch==2.11.0+cu126\ntorchvision==0.26.0+cu126\n"
    assert "installed d2lgpu 0.1.0 beside torch 2.11.0+cu126" in capsys.readouterr().out


def test_elsewhere_it_clones_the_configured_repository_and_installs_it_editable(
    monkeypatch, tmp_path
):
    colab = Runtime(monkeypatch, {"torch": "2.12.0"})
    monkeypatch.delenv("D2LGPU_WHEEL", raising=False)
    monkeypatch.chdir(tmp_path)
    colab.run_cell()
    clone, pip = colab.commands
    checkout = str(tmp_path / "d2lgpu-course")
    assert clone == ["git", "clone", "--depth", "1", setup_cell.repository_url(), checkout]
    assert pip[-2:] == ["-e", checkout] and sys.path[0] == checkout
    assert colab.constraints == "torch==2.12.0\n"  # no torchvision there: pip may add one
