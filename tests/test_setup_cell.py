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
import work_copies  # noqa: E402

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
    # the one name it binds, the wheel's variable, the local clone's folder; no blank line after
    assert 'def _setup_d2lgpu(repository="https://github.com/me/fork", torch_floor=(2, 12)):' in (
        forked
    )
    assert 'os.environ.get("D2LGPU_WHEEL")' in forked
    assert 'os.path.abspath("d2lgpu-course")' in forked
    assert forked.endswith("finally:  # a failure too leaves no name behind\n    del _setup_d2lgpu")
    # a floor with a patch release keeps its major and minor
    patch = text.replace('"torch>=2.11"', '"torch>=2.12.1"')
    (tmp_path / "pyproject.toml").write_text(patch)
    assert setup_cell.torch_floor(tmp_path / "pyproject.toml") == (2, 12)


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


def test_write_reports_what_it_changed_and_ends_the_file_with_a_newline(tmp_path, capsys):
    root = course_copy(tmp_path, names=("01_devices.ipynb",))
    written = setup_cell.notebooks(root, setup_cell.WRITTEN)
    assert run_main("--write", "--root", str(root)) == 0
    assert capsys.readouterr().out.splitlines() == [
        *(f"wrote {path}" for path in written),
        "now run `make exercises`, which copies the cell into exercises/",
    ]
    path = written[0]
    assert path.read_text().endswith("}\n") and not path.read_text().endswith("\n\n")
    assert setup_cell.write(path, SOURCE) is False  # current: the file is left as it is
    run_main("--write", "--root", str(root))
    assert "wrote" not in capsys.readouterr().out
    # stale: the last line says what to run
    assert run_main("--check", "--root", str(root)) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "set-up cells are missing or stale: run tools/setup_cell.py --write, then `make exercises`"
    )


def test_the_command_line_says_what_it_does_and_needs_a_mode(capsys):
    with pytest.raises(SystemExit):
        run_main("--help")
    text = " ".join(capsys.readouterr().out.split())
    assert text.split("options:")[0].endswith(
        "The set-up cell that opens every chapter, solution and exercise notebook, written "
        "once, here. "
    )
    assert "--write insert or update it in ('notebooks', 'solutions')" in text
    assert "--check exit 1 naming stale notebooks" in text
    assert f"--root ROOT the course checkout (default: {setup_cell.ROOT})" in text
    with pytest.raises(SystemExit):
        run_main()
    assert "one of the arguments --write --check is required" in capsys.readouterr().err
    # the default checkout is the course's own, whose notebooks are current
    assert run_main("--check") == 0
    assert capsys.readouterr().out == "every notebook opens with the current set-up cell\n"


def test_a_notebook_without_code_gets_the_cell_at_its_end(tmp_path):
    path = tmp_path / "notes.ipynb"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Notes")]
    nbformat.write(nb, path)
    assert (
        setup_cell.problem(path, SOURCE) == f"{path}: no set-up cell (a code cell tagged 'setup')"
    )
    assert setup_cell.write(path, SOURCE)
    cells = nbformat.read(path, as_version=4).cells
    assert [c.cell_type for c in cells] == ["markdown", "code"] and cells[1].id == "setup"


def test_cells_made_one_after_another_share_no_metadata():
    first, second = setup_cell.new_cell(SOURCE), setup_cell.new_cell(SOURCE)
    first.metadata["tags"].append("going-further")
    first.metadata["jupyter"]["source_hidden"] = False
    assert (
        second.metadata
        == setup_cell.METADATA
        == {
            "tags": ["setup"],
            "jupyter": {"source_hidden": True},
        }
    )


def test_the_cell_is_the_first_code_cell_tagged_and_empty(tmp_path):
    root = course_copy(tmp_path)
    path = root / "notebooks" / "02_tensors.ipynb"
    old = nbformat.read(path, as_version=4)
    setup_cell.write(path, SOURCE)
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code[0].source == SOURCE and code[0].id == "setup"
    assert code[0].metadata == {"tags": ["setup"], "jupyter": {"source_hidden": True}}
    assert code[0].outputs == []
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
    # write leaves one, the first code cell
    assert setup_cell.write(path, SOURCE) and setup_cell.problem(path, SOURCE) is None
    cells = nbformat.read(path, as_version=4).cells
    assert [c.id for c in cells if "setup" in c.metadata.get("tags", [])] == ["setup"]


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
    assert first.metadata["jupyter"] == {"source_hidden": True}


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
        self.fails = {}  # a command's program -> (exit status, stderr), or an OSError
        real_find_spec = importlib.util.find_spec

        def find_spec(name, *args):
            if name in ("d2lgpu", "torch", "torchvision"):
                return object() if name in self.installed else None
            return real_find_spec(name, *args)

        def version(name):
            if name not in self.installed:
                raise importlib.metadata.PackageNotFoundError(name)
            return self.installed[name]

        def run(cmd, **kwargs):
            self.commands.append(cmd)
            if cmd[0] in self.fails:  # what git or pip would print, and its exit status
                status, stderr = self.fails[cmd[0]]
                return subprocess.CompletedProcess(cmd, status, "", stderr)
            if "--constraint" in cmd:
                self.constraints = Path(cmd[cmd.index("--constraint") + 1]).read_text()
                self.installed["d2lgpu"] = "0.1.0"
            return subprocess.CompletedProcess(cmd, 0, "", "")

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


def test_a_local_clone_at_d2lgpu_course_is_installed_without_cloning(monkeypatch, tmp_path):
    colab = Runtime(monkeypatch, {"torch": "2.12.0"})
    monkeypatch.delenv("D2LGPU_WHEEL", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d2lgpu-course").mkdir()
    colab.run_cell()
    (pip,) = colab.commands  # no git clone: no network needed for the course itself
    assert pip[-2:] == ["-e", str(tmp_path / "d2lgpu-course")]


def one_line_failure(colab):
    """Run the cell; return the one line IPython shows for its error (no traceback)."""
    namespace = {}
    with pytest.raises(RuntimeError) as raised:
        exec(SOURCE, namespace)
    assert setup_cell.FUNCTION not in namespace  # a failure too leaves no name behind
    (line,) = raised.value._render_traceback_()
    assert "\n" not in line and line.startswith("d2lgpu set-up: ")
    return line


REMEDIES = (
    "on Kaggle turn Internet on",
    "or put a clone of the course at {checkout}",
    'or, for a fork, set repository="https://github.com/you/d2lgpu" in this cell',
)


@pytest.mark.parametrize(
    "fails, cause",
    [
        (
            {"git": (128, "Cloning into 'x'...\nfatal: unable to access 'https://github.com/"
                     "d2lgpu/d2lgpu/': Could not resolve host: github.com\n")},
            "git clone {repository} failed (fatal: unable to access 'https://github.com/d2lgpu/"
            "d2lgpu/': Could not resolve host: github.com)",
        ),
        (
            {sys.executable: (1, "ERROR: No matching distribution found for tqdm>=4.66\n")},
            "pip install {checkout} failed (ERROR: No matching distribution found for tqdm>=4.66)",
        ),
        ({"git": (128, "")}, "git clone {repository} failed (exit status 128)"),
        (  # pip without a network, building the clone: its last line is a note, not the cause
            {sys.executable: (1, "  error: subprocess-exited-with-error\n  \n  × pip subprocess "
                                 "to install build dependencies did not run successfully.\n  "
                                 "╰─> [2 lines of output]\n      ERROR: Could not find a version "
                                 "that satisfies the requirement setuptools>=61 (from versions: "
                                 "none)\n      ERROR: No matching distribution found for "
                                 "setuptools>=61\n      [end of output]\n  \n  note: This error "
                                 "originates from a subprocess, and is likely not a problem with "
                                 "pip.\n")},
            "pip install {checkout} failed (ERROR: No matching distribution found for "
            "setuptools>=61)",
        ),
    ],
)  # fmt: skip
def test_a_failed_clone_or_pip_says_why_and_what_to_do_in_one_line(
    monkeypatch, tmp_path, fails, cause
):
    colab = Runtime(monkeypatch, {"torch": "2.12.0"})
    colab.fails = fails
    monkeypatch.delenv("D2LGPU_WHEEL", raising=False)
    monkeypatch.chdir(tmp_path)
    if "git" not in fails:
        (tmp_path / "d2lgpu-course").mkdir()
    line = one_line_failure(colab)
    where = {"repository": setup_cell.repository_url(), "checkout": tmp_path / "d2lgpu-course"}
    assert cause.format(**where) in line
    for remedy in REMEDIES:
        assert remedy.format(**where) in line


def test_no_git_at_all_says_so_in_one_line(monkeypatch, tmp_path):
    colab = Runtime(monkeypatch, {"torch": "2.12.0"})
    monkeypatch.delenv("D2LGPU_WHEEL", raising=False)
    monkeypatch.chdir(tmp_path)

    def no_git(cmd, **kwargs):
        raise FileNotFoundError(2, "No such file or directory", cmd[0])

    monkeypatch.setattr(subprocess, "run", no_git)
    line = one_line_failure(colab)
    assert "git clone" in line and "No such file or directory: 'git'" in line
    assert REMEDIES[0] in line


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_with_no_network_the_cell_fails_in_one_line_in_a_kernel(monkeypatch, tmp_path):
    # A kernel where d2lgpu cannot be imported (as on Colab) and git cannot reach the
    # configured repository: git rewrites its URL to a host that never resolves (.invalid).
    from tools.kernel_start import NotebookClient  # nbclient's, started again if it died at once

    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "url.https://d2lgpu.invalid/.insteadOf")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", setup_cell.repository_url().rsplit("/", 2)[0] + "/")
    monkeypatch.setenv("GIT_TERMINAL_PROMPT", "0")
    monkeypatch.delenv("D2LGPU_WHEEL", raising=False)
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import sys\nsys.modules['d2lgpu'] = None  # not installed"),
        setup_cell.new_cell(SOURCE),
        nbformat.v4.new_code_cell("print(sorted(n for n in dir() if 'setup' in n))"),
    ]
    client = NotebookClient(
        nb, timeout=120, startup_timeout=300, kernel_name="python3", allow_errors=True,
        resources={"metadata": {"path": str(tmp_path)}},
    )  # fmt: skip
    client.execute()
    (error,) = nb.cells[1].outputs  # nothing else printed: no git chatter, no traceback
    assert error.output_type == "error" and error.ename == "SetupError"
    (line,) = error.traceback
    assert line.startswith(f"d2lgpu set-up: git clone {setup_cell.repository_url()} failed (")
    assert "d2lgpu.invalid" in line  # git's own cause
    for remedy in REMEDIES:
        assert remedy.format(checkout=tmp_path / "d2lgpu-course") in line
    assert not (tmp_path / "d2lgpu-course").exists()
    assert nb.cells[2].outputs[0].text == "[]\n"  # the cell left no name behind


def non_blank(source):
    return sum(1 for line in source.splitlines() if line.strip())


@pytest.mark.parametrize("folder", setup_cell.CHECKED)
def test_in_the_lab_every_set_up_cell_has_at_most_3_lines_and_binds_nothing(folder):
    # The lab opens the copies in work/ that tools/work_copies.py renders; they hold LAB_SOURCE.
    paths = sorted((ROOT / folder).glob("*.ipynb"))
    assert paths
    for path in paths:
        assert setup_cell.problem(path, SOURCE) is None, setup_cell.problem(path, SOURCE)
        copy = nbformat.reads(work_copies.render_copy(path).decode(), as_version=4)
        (cell,) = [c for c in copy.cells if setup_cell.TAG in c.metadata.get("tags", [])]
        lines = non_blank(cell.source)
        assert 0 < lines <= 3, f"{path}: the set-up cell of its copy has {lines} lines"
        assert not cell.metadata.get("jupyter", {}).get("source_hidden")  # shown, not folded
        assert "make lab" in cell.source and "Colab" in cell.source
        # comments only: it binds no name, so no GPU cell's reference key can change
        assert all(line.lstrip().startswith("#") for line in cell.source.splitlines() if line)
    # the count can fail: the notebooks' own cell is far longer than 3 lines
    assert non_blank(SOURCE) > 3


def test_the_copies_in_the_lab_keep_every_gpu_reference_key(tmp_path):
    checked = 0
    for path in setup_cell.notebooks(ROOT, setup_cell.WRITTEN):
        copy = tmp_path / path.name
        copy.write_bytes(work_copies.render_copy(path))
        assert gpu_keys(copy) == gpu_keys(path), path
        checked += len(gpu_keys(path))
    assert checked > 10  # the chapters have GPU cells; an empty comparison proves nothing


def test_rewriting_a_stale_cell_keeps_its_place_and_execution_count(tmp_path):
    # make outputs numbered it; a new cell text must not make the stored outputs look unrun
    path = tmp_path / "02_tensors.ipynb"
    shutil.copy(ROOT / "notebooks" / "02_tensors.ipynb", path)
    nb = nbformat.read(path, as_version=4)
    index = next(i for i, c in enumerate(nb.cells) if c.id == setup_cell.CELL_ID)
    nb.cells[index].source = "# an older set-up cell"
    nb.cells[index].metadata = {"tags": ["setup"]}
    nb.cells[index].execution_count = 1
    nbformat.write(nb, path)
    assert setup_cell.write(path, SOURCE)
    cell = nbformat.read(path, as_version=4).cells[index]
    assert (cell.id, cell.source, cell.execution_count) == ("setup", SOURCE, 1)
    assert cell.metadata == setup_cell.METADATA


def test_the_readme_documents_the_local_copy_and_fork_routes():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("**When the set-up cell cannot clone.**", 1)[1].split("\n## ", 1)[0]
    assert f"`{setup_cell.CLONE_DIR}`" in section  # the folder the cell looks for
    fork = f'`repository="{setup_cell.repository_url()}"`'
    assert fork in section and fork.strip("`") in SOURCE  # what the reader edits is in the cell
    assert "tools/setup_cell.py --write" in section
