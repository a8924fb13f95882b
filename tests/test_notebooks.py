"""Structure of the notebooks: what nbval cannot see.

nbval runs the cells and compares outputs; these tests check the rest of the
contract: the kernel, the skeleton, GPU cells that skip cleanly, outputs from
a CPU run, no warnings, and links that lead somewhere.
"""

import configparser
import importlib.util
import os
import re
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
import torch

from d2lgpu.magics import gpus_needed, skip_message

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


def read(path):
    return nbformat.read(path, as_version=4)


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def cell_gpus(cell):
    return gpus_needed(cell.metadata.get("tags", []))


def test_the_chapters_are_numbered_in_order():
    assert [p.stem[:2] for p in CHAPTERS] == [f"{n:02d}" for n in range(1, 12)]


@pytest.mark.parametrize("path", CHAPTERS + SOLUTIONS + EXERCISES, ids=lambda p: p.name)
def test_notebook_uses_the_course_kernel_and_is_valid(path):
    nb = read(path)
    nbformat.validate(nb)
    assert nb.metadata["kernelspec"]["name"] == "d2lgpu"
    for cell in nb.cells:
        assert "execution" not in cell.metadata, "cell timestamps make every re-run a diff"


# A cell that would fail without a GPU: it must be tagged (and then skip cleanly).
CUDA_CALL = re.compile(r"\.cuda\(|device=[\"']cuda|torch\.cuda\.(synchronize|set_device)\(")


@pytest.mark.parametrize("path", CHAPTERS + SOLUTIONS + EXERCISES, ids=lambda p: p.name)
def test_gpu_cells_skip_cleanly(path):
    nb = read(path)
    cells = code_cells(nb)
    gpu = [i for i, c in enumerate(cells) if cell_gpus(c)]
    # Tag and magic go together, both ways: a tag without the magic would crash a learner's
    # CPU run; a magic without the tag would make nbval fail on a CPU machine.
    magic = [i for i, c in enumerate(cells) if c.source.lstrip().startswith("%%requires_gpu")]
    assert magic == gpu, f"cells with %%requires_gpu {magic} but tagged {gpu}"
    unguarded = [i for i, c in enumerate(cells) if i not in gpu and CUDA_CALL.search(c.source)]
    assert not unguarded, f"code cells {unguarded} call CUDA but are not tagged requires-gpu"
    loads = [i for i, c in enumerate(cells) if "%load_ext d2lgpu.magics" in c.source]
    # In the first code cell: nbval runs cells without IPython's history, so the extension
    # sees only the cells from the one that loads it on, and a GPU cell's reference is keyed
    # by the code above it (d2lgpu.references.cell_key).
    # The set-up cell (tools/setup_cell.py: installs the course on Colab and Kaggle) comes first.
    first = 1 if cells and "setup" in cells[0].metadata.get("tags", []) else 0
    assert not gpu or loads[:1] == [first], "load %%requires_gpu in the first code cell"
    for i in gpu:
        cell, n = cells[i], cell_gpus(cells[i])
        first = cell.source.splitlines()[0].strip()
        assert first == ("%%requires_gpu" if n == 1 else f"%%requires_gpu {n}"), (
            f"code cell {i} is tagged for {n} GPU(s) but starts with {first!r}"
        )
        # On a GPU, nbval runs them without comparing (the tag; the root conftest.py
        # compares them on a CPU: test_stored_gpu_cell_outputs_are_what_a_cpu_shows_now).
        assert "nbval-ignore-output" in cell.metadata["tags"]


# What sanitize.cfg leaves out of nbval's comparison of a reference block.
_SANITIZE = configparser.ConfigParser()
_SANITIZE.read(ROOT / "tests" / "sanitize.cfg")
TORCH_NOTE = re.compile(_SANITIZE["torch-of-this-machine"]["regex"])


def gpu_cell_shows(cells, cell):
    """What a GPU cell prints on a machine without CUDA: (stdout, display data or None)."""
    from d2lgpu import references

    earlier = references.earlier_sources(cells, cell.id)
    entries = references.find_reference(cell.source, earlier=earlier)
    line = skip_message(cell_gpus(cell), 0, reference=bool(entries))
    line = line.replace(" This Mac's GPU (mps) is not CUDA.", "")
    if entries:
        return line + "\n", references.reference_bundle(entries, torch.__version__)
    other = references.body_has_reference(cell.source)
    return f"{line}\n{references.OTHER_CELLS_ABOVE if other else references.NO_REFERENCE}\n", None


@pytest.mark.parametrize("path", CHAPTERS + SOLUTIONS, ids=lambda p: p.name)
def test_stored_gpu_cell_outputs_are_what_a_cpu_shows_now(path):
    # No GPU cell is blank where the notebook is read (GitHub, nbviewer, a fresh JupyterLab):
    # each stores its reference block or the no-reference line, from the current references
    # and the current code (nbval checks the same on a CPU, by running the cells).
    nb = read(path)
    stale = []
    for i, cell in enumerate(code_cells(nb)):
        if not cell_gpus(cell):
            continue
        stdout, display = gpu_cell_shows(nb.cells, cell)
        stored_stdout = "".join(
            o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout"
        )
        shown = [o.data for o in cell.outputs if o.output_type == "display_data"]
        expected = [] if display is None else [display]
        ok = cell.execution_count is not None and stored_stdout == stdout
        ok = ok and [{k: TORCH_NOTE.sub("", v) for k, v in d.items()} for d in shown] == [
            {k: TORCH_NOTE.sub("", v) for k, v in d.items()} for d in expected
        ]
        if not ok:
            stale.append(f"code cell {i} ({cell.id})")
    assert not stale, f"stored GPU cell outputs not current, run `make outputs`: {stale}"


@pytest.mark.parametrize("path", CHAPTERS + SOLUTIONS, ids=lambda p: p.name)
def test_stored_outputs_are_complete_and_quiet(path):
    nb = read(path)
    for i, cell in enumerate(code_cells(nb)):
        if cell_gpus(cell):
            continue
        assert cell.execution_count is not None, f"code cell {i} was not run: `make outputs`"
        for out in cell.outputs:
            assert out.output_type != "error", f"code cell {i} stored an error"
            if out.output_type == "stream" and out.name == "stderr":
                assert "Warning" not in out.text, f"code cell {i} printed a warning: {out.text}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_chapter_has_the_skeleton_and_links_to_its_exercises(path):
    nb = read(path)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert nb.cells[0].source.startswith(f"# {int(path.stem[:2])}. ")
    for heading in ("You will learn", "Prerequisites"):
        assert heading in nb.cells[0].source, f"the first cell needs '{heading}'"
    for heading in ("## Summary", "## Exercises"):
        assert heading in text
    links = re.findall(r"\]\(\.\./((?:exercises|solutions)/[^)]+)\)", text)
    assert any(link.startswith("exercises/") for link in links)
    for link in links:
        assert (ROOT / link).exists(), f"{path.name} links to {link}, which does not exist"


# A temporary file or folder that nothing removes stays behind at every run: the course makes
# them with tempfile.TemporaryDirectory only, which removes itself at the end of its with
# block, or when the kernel stops.
LEAVES_FILES_BEHIND = re.compile(r"\b(?:mkdtemp|mkstemp|mktemp)\(|\bdelete\s*=\s*False")
COURSE_CODE = [
    *CHAPTERS,
    *SOLUTIONS,
    *EXERCISES,
    *sorted((ROOT / "scripts").glob("*.py")),
    *sorted((ROOT / "d2lgpu").rglob("*.py")),
]


@pytest.mark.parametrize("path", COURSE_CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_temporary_file_is_left_behind(path):
    if path.suffix == ".ipynb":
        sources = [(f"code cell {i}", c.source) for i, c in enumerate(code_cells(read(path)))]
    else:
        sources = [("", path.read_text())]
    for where, source in sources:
        found = LEAVES_FILES_BEHIND.search(source)
        assert not found, (
            f"{path.relative_to(ROOT)} {where} uses {found.group()}: nothing removes what it "
            "makes; use tempfile.TemporaryDirectory"
        )


def test_readme_lists_every_chapter():
    readme = (ROOT / "README.md").read_text()
    for path in CHAPTERS:
        assert f"notebooks/{path.name}" in readme, f"README's chapter table lacks {path.name}"


@pytest.mark.slow
def test_random_order_never_shuffles_a_notebooks_cells():
    # pytest-randomly is installed for the unit tests; with nbval the cells keep their order.
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "randomly",
         "--randomly-seed=1", "--nbval", "--nbval-current-env", "notebooks/01_devices.ipynb"],
        cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True,
    )  # fmt: skip
    cells = [line for line in result.stdout.splitlines() if "::Cell " in line]
    numbers = [int(line.rsplit("Cell ", 1)[1]) for line in cells]
    assert len(numbers) > 5 and numbers == sorted(numbers), result.stdout[-2000:]


def test_nbval_gives_the_kernels_a_temporary_folder_it_removes(monkeypatch):
    # nbval kills each kernel, so a cell's TemporaryDirectory cannot remove itself: the root
    # conftest points TMPDIR, which the kernels inherit, at a folder of the run's own.
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    root_conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(root_conftest)
    monkeypatch.setenv("TMPDIR", "/somewhere/else")
    monkeypatch.delenv("TORCHINDUCTOR_CACHE_DIR", raising=False)  # restored after the test

    class Config:
        def __init__(self, nbval):
            self.stash = pytest.Stash()
            self.option = SimpleNamespace()
            self.nbval = nbval

        def getoption(self, name, default=None):
            return self.nbval if name == "nbval" else default

    unit_run = Config(nbval=False)
    root_conftest.pytest_configure(unit_run)
    assert os.environ["TMPDIR"] == "/somewhere/else"
    root_conftest.pytest_unconfigure(unit_run)

    nbval_run = Config(nbval=True)
    root_conftest.pytest_configure(nbval_run)
    scratch = Path(os.environ["TMPDIR"])
    assert scratch.is_dir() and scratch.name.startswith("d2lgpu-nbval-")
    cache = Path(os.environ["TORCHINDUCTOR_CACHE_DIR"])  # torch.compile's, kept between runs
    assert cache.name.startswith("torchinductor_") and scratch not in cache.parents
    (scratch / "left-by-a-cell").mkdir()
    root_conftest.pytest_unconfigure(nbval_run)
    assert not scratch.exists()
    assert os.environ["TMPDIR"] == "/somewhere/else"
    assert "TORCHINDUCTOR_CACHE_DIR" not in os.environ  # as it was before the run


@pytest.mark.parametrize("setting", [None, "cpu"])
def test_chapter_1s_bad_device_demo_puts_back_the_learners_setting(monkeypatch, capsys, setting):
    # The demo sets D2LGPU_DEVICE=tpu to show the error; afterwards the learner's own
    # D2LGPU_DEVICE (say cpu, as the cell above suggests) is what it was, not deleted.
    import d2lgpu

    (cell,) = [
        c for c in code_cells(read(ROOT / "notebooks" / "01_devices.ipynb"))
        if 'os.environ["D2LGPU_DEVICE"] = "tpu"' in c.source
    ]  # fmt: skip
    if setting is None:
        monkeypatch.delenv("D2LGPU_DEVICE", raising=False)
    else:
        monkeypatch.setenv("D2LGPU_DEVICE", setting)
    namespace = {"os": os, "d2lgpu": d2lgpu}
    exec(compile(cell.source, "chapter 1's demo", "exec"), namespace)
    assert "ValueError: D2LGPU_DEVICE='tpu'" in capsys.readouterr().out
    assert os.environ.get("D2LGPU_DEVICE") == setting
    assert namespace["device"] == (torch.device(setting) if setting else d2lgpu.try_gpu())
