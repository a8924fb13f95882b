from pathlib import Path

import nbformat
import pytest
import torch

from d2lgpu import magics


@pytest.fixture
def ipython():
    """IPython's test shell: started by the first test that asks, the same one after."""
    from IPython import get_ipython
    from IPython.testing.globalipapp import start_ipython

    return start_ipython() or get_ipython()


def test_without_the_gpu_the_cell_is_skipped_with_a_reason(monkeypatch, capsys):
    monkeypatch.setattr(magics, "num_gpus", lambda: 1)
    namespace = {}
    magics.requires_gpu("2", "ran = True\nraise RuntimeError('must not run')", namespace=namespace)
    assert "ran" not in namespace
    assert capsys.readouterr().out.startswith(
        "Skipped: this cell needs 2 CUDA GPUs; 1 is visible here."
    )


def test_with_the_gpu_the_cell_runs_and_its_errors_are_errors(monkeypatch):
    monkeypatch.setattr(magics, "num_gpus", lambda: 2)
    namespace = {"torch": torch}
    magics.requires_gpu("", "x = torch.ones(2).sum().item()", namespace=namespace)
    assert namespace["x"] == 2.0
    with pytest.raises(AssertionError, match="a real failure"):
        magics.requires_gpu("2", "assert False, 'a real failure'", namespace=namespace)


@pytest.mark.parametrize("line", ["x", "0", "-1"])
def test_a_bad_gpu_count_is_a_clear_error(line):
    with pytest.raises(ValueError, match=r"takes the number of GPUs the cell needs"):
        magics.requires_gpu(line, "pass", namespace={})


def test_the_extension_registers_the_cell_magic(ipython, monkeypatch, tmp_path):
    from IPython.utils.capture import capture_output

    from d2lgpu import references

    ip = ipython
    monkeypatch.setattr(magics, "num_gpus", lambda: 0)
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    monkeypatch.setattr(references, "RESULTS_DIR", tmp_path)
    ip.run_line_magic("load_ext", "d2lgpu.magics")
    with capture_output() as shown:
        ip.run_cell("%%requires_gpu\nskipped_value = 1\n")
    assert "skipped_value" not in ip.user_ns
    assert shown.stdout == (
        "Skipped: this cell needs a CUDA GPU; 0 are visible here. "
        "The text above says what it shows.\n" + references.NO_REFERENCE + "\n"
    )
    assert shown.outputs == []  # no reference: nothing displayed beyond the two lines


def test_a_skipped_cell_with_a_reference_displays_it_as_a_labelled_block(
    ipython, monkeypatch, tmp_path
):
    from IPython.utils.capture import capture_output

    from d2lgpu import references

    provenance = {
        "device": "NVIDIA H100 80GB HBM3",
        "torch": "2.11.0+cu130",
        "cuda": "13.0",
        "date": "2026-11-23",
        "origin": "a test",
    }
    source = "%%requires_gpu\nprint('a < b & c')\n"
    references.record_reference(
        tmp_path, "notebooks/x.ipynb", "c1", source, "a < b & c\n", provenance
    )
    ip = ipython
    monkeypatch.setattr(magics, "num_gpus", lambda: 0)
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    monkeypatch.setattr(references, "RESULTS_DIR", tmp_path)
    monkeypatch.setattr(torch, "__version__", "2.14.1+cu130")
    ip.run_line_magic("load_ext", "d2lgpu.magics")
    with capture_output() as shown:
        ip.run_cell(source)
    # The skip line alone on stdout; the reference is a display of its own, HTML and text.
    assert shown.stdout == "Skipped: this cell needs a CUDA GPU; 0 are visible here.\n"
    [display] = shown.outputs
    heading = "Recorded on NVIDIA H100 80GB HBM3 with torch 2.11.0+cu130, 2026-11-23"
    note = "(this machine has torch 2.14.1)"
    assert display.data == {
        "text/plain": f"{heading} {note}\n    a < b & c",
        "text/html": (
            '<div style="border: 1px solid #999; border-left: 4px solid #e69f00; '
            'padding: 0.3em 0.8em; margin: 0.2em 0">'
            f"<strong>{heading}</strong> <em>{note}</em>"
            '<pre style="margin: 0.3em 0 0">a &lt; b &amp; c</pre></div>'
        ),
    }


@pytest.mark.parametrize(
    "tags, needed",
    [
        ([], 0),
        (["nbval-ignore-output"], 0),
        (["requires-gpu"], 1),
        (["requires-2-gpus", "requires-gpu"], 2),
    ],
)
def test_gpus_needed_reads_the_cell_tags(tags, needed):
    assert magics.gpus_needed(tags) == needed


def test_on_a_mac_the_skip_says_its_gpu_is_not_cuda(monkeypatch, capsys, tmp_path):
    from d2lgpu import references

    monkeypatch.setattr(magics, "num_gpus", lambda: 0)
    monkeypatch.setattr(magics, "mps_available", lambda: True)
    monkeypatch.setattr(references, "RESULTS_DIR", tmp_path)
    magics.requires_gpu("", "ran = True", namespace=(namespace := {}))
    assert "ran" not in namespace
    assert capsys.readouterr().out.startswith(
        "Skipped: this cell needs a CUDA GPU; 0 are visible here. This Mac's GPU (mps) is not "
        "CUDA. The text above says what it shows.\nNo GPU reference output exists yet"
    )
    assert magics.skip_message(1, 0) == (
        "Skipped: this cell needs a CUDA GPU; 0 are visible here. This Mac's GPU (mps) is not CUDA."
    )
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    assert "mps" not in magics.skip_message(1, 0)


@pytest.mark.parametrize(
    "needed, visible, reference, line",
    [
        (1, 0, True, "Skipped: this cell needs a CUDA GPU; 0 are visible here."),
        (2, 1, True, "Skipped: this cell needs 2 CUDA GPUs; 1 is visible here."),
        (
            2,
            0,
            False,
            "Skipped: this cell needs 2 CUDA GPUs; 0 are visible here. "
            "The text above says what it shows.",
        ),
    ],
)
def test_the_skip_line_points_to_the_prose_only_without_a_reference(
    monkeypatch, needed, visible, reference, line
):
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    assert magics.skip_message(needed, visible, reference=reference) == line


def load_root_conftest():
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "root_conftest", Path(__file__).resolve().parent.parent / "conftest.py"
    )
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    return conftest


class NbvalItem:
    """What the root conftest reads of one of nbval's cell items."""

    def __init__(self, tags, compare_outputs=True):
        self.cell = {"metadata": {"tags": tags}}
        # nbval's options: nbval-ignore-output (every GPU cell has it) sets check=False
        self.options = {"check": "nbval-ignore-output" not in tags and compare_outputs}
        self.parent = type("NbvalFile", (), {"compare_outputs": compare_outputs})()
        self.marks = []

    def add_marker(self, mark):
        self.marks.append(mark)


GPU_TAGS = {
    1: ["requires-gpu", "nbval-ignore-output"],
    2: ["requires-2-gpus", "nbval-ignore-output"],
}


@pytest.mark.parametrize("mac", [False, True])
def test_without_cuda_nbval_runs_gpu_cells_and_compares_what_they_print(monkeypatch, mac):
    # On a CPU (a Mac's included: its skip line's mps sentence is sanitized away) the cell
    # runs, the magic prints the reference or why there is none, and nbval compares that
    # with the stored output, the nbval-ignore-output tag notwithstanding.
    conftest = load_root_conftest()
    monkeypatch.setattr(conftest, "_visible_gpus", lambda: 0)
    monkeypatch.setattr(magics, "mps_available", lambda: mac)
    one, two, plain = NbvalItem(GPU_TAGS[1]), NbvalItem(GPU_TAGS[2]), NbvalItem([])
    ignored = NbvalItem(["nbval-ignore-output"])
    conftest.pytest_collection_modifyitems(None, [one, two, plain, ignored])
    for item in (one, two, plain):
        assert item.marks == [] and item.options["check"] is True
    assert ignored.options["check"] is False  # other tagged cells keep their tag
    lax = NbvalItem(GPU_TAGS[1], compare_outputs=False)  # --nbval-lax compares nothing untagged
    conftest.pytest_collection_modifyitems(None, [lax])
    assert lax.marks == [] and lax.options["check"] is False


def test_with_gpus_nbval_runs_gpu_cells_without_comparing_or_skips_them_saying_why(monkeypatch):
    conftest = load_root_conftest()
    monkeypatch.setattr(conftest, "_visible_gpus", lambda: 1)
    one, two = NbvalItem(GPU_TAGS[1]), NbvalItem(GPU_TAGS[2])
    conftest.pytest_collection_modifyitems(None, [one, two])
    assert one.marks == [] and one.options["check"] is False  # runs; recorded, not compared
    (mark,) = two.marks
    assert mark.name == "skip" and mark.kwargs["reason"] == "requires 2 GPUs (1 visible)"
    monkeypatch.setattr(conftest, "_visible_gpus", lambda: 2)
    two = NbvalItem(GPU_TAGS[2])
    conftest.pytest_collection_modifyitems(None, [two])
    assert two.marks == [] and two.options["check"] is False


def test_on_a_gpu_a_cell_is_recorded_under_the_key_of_its_code_and_the_code_above(
    monkeypatch, tmp_path
):
    import json
    from pathlib import Path

    import nbformat

    from d2lgpu import references

    conftest = load_root_conftest()
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import torch\n%load_ext d2lgpu.magics\n"),
        nbformat.v4.new_markdown_cell("On a GPU, a larger size:"),
        nbformat.v4.new_code_cell(
            "on_gpu = torch.cuda.is_available()\nn = 4096 if on_gpu else 256"
        ),
        nbformat.v4.new_code_cell(
            "%%requires_gpu\nprint(torch.ones(n, device='cuda').sum().item())",
            metadata={"tags": GPU_TAGS[1]},
        ),
    ]
    gpu_cell = nb.cells[3]
    item = NbvalItem(GPU_TAGS[1])
    item.cell = gpu_cell
    item.fspath = Path(conftest.__file__).parent / "notebooks" / "tiny.ipynb"
    item.parent.nb = nb
    item.test_outputs = [{"output_type": "stream", "name": "stdout", "text": "4096.0\n"}]
    provenance = dict(device="NVIDIA H100 80GB HBM3", torch="2.11.0+cu130", cuda="13.0")
    monkeypatch.setattr(conftest, "_provenance", lambda: dict(provenance, date="d", origin="o"))
    monkeypatch.setenv(conftest.RECORD_ENV_VAR, str(tmp_path))

    class Call:
        when, duration = "call", 0.5

    class Outcome:
        def get_result(self):
            return type("Report", (), {"passed": True, "outcome": "passed"})()

    hook = conftest.pytest_runtest_makereport(item, Call())  # a hook wrapper: a generator
    next(hook)
    with pytest.raises(StopIteration):
        hook.send(Outcome())
    data = json.loads((tmp_path / "NVIDIA-H100-80GB-HBM3/cells/notebooks_tiny.json").read_text())
    entry = data["cells"][gpu_cell.id]
    earlier = [nb.cells[0].source, nb.cells[2].source]
    assert entry["sha256"] == references.cell_key(gpu_cell.source, earlier)
    assert entry["sha256"] != references.body_sha256(references.cell_body(gpu_cell.source))
    assert entry["reads"] == ["import torch", "on_gpu = torch.cuda.is_available()",
                              "n = 4096 if on_gpu else 256"]  # fmt: skip
    assert entry["output"] == "4096.0\n" and entry["seconds"] == 0.5
    runs = (tmp_path / "NVIDIA-H100-80GB-HBM3" / "cell-runs.jsonl").read_text().splitlines()
    assert json.loads(runs[0])["gpu"] is True
    assert json.loads(runs[0])["key"] == entry["sha256"]  # which code passed


def test_a_reference_is_shown_after_the_code_above_that_it_ran_after(
    ipython, monkeypatch, tmp_path
):
    # The kernel keeps the cells it ran: the reference of a cell that reads a size set above
    # shows only after that size's statement as the GPU ran it.
    from IPython.utils.capture import capture_output

    from d2lgpu import references

    provenance = {
        "device": "NVIDIA H100 80GB HBM3",
        "torch": "2.11.0",
        "cuda": "13.0",
        "date": "2026-11-23",
        "origin": "a test",
    }
    size_cell = "magics_test_size = 4096  # on a GPU\n"
    gpu_cell = "%%requires_gpu\nprint(magics_test_size)\n"
    references.record_reference(
        tmp_path, "notebooks/x.ipynb", "c", gpu_cell, "4096\n", provenance, earlier=[size_cell]
    )
    monkeypatch.setattr(magics, "num_gpus", lambda: 0)
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    monkeypatch.setattr(references, "RESULTS_DIR", tmp_path)
    monkeypatch.setattr(torch, "__version__", "2.11.0")
    ipython.run_line_magic("load_ext", "d2lgpu.magics")

    def run(size_source, store_history):
        ipython.run_cell(size_source, store_history=store_history)
        with capture_output() as shown:
            ipython.run_cell(gpu_cell, store_history=store_history)
        return shown

    for store_history in (False, True):  # nbval stores no history; JupyterLab does
        shown = run(size_cell, store_history)
        assert shown.stdout == "Skipped: this cell needs a CUDA GPU; 0 are visible here.\n"
        [display] = shown.outputs
        assert display.data["text/plain"].endswith("\n    4096")
        shown = run("magics_test_size = 8192\n", store_history)
        assert shown.outputs == [] and shown.stdout.endswith(references.OTHER_CELLS_ABOVE + "\n")
        # comments and blanks are not code: the reference is shown again
        shown = run("magics_test_size = 4096   # changed comment\n\n", store_history)
        assert len(shown.outputs) == 1 and "Skipped" in shown.stdout


def test_the_cells_run_so_far_come_from_history_and_the_running_cell():
    from types import SimpleNamespace

    def shell(history, running):
        info = SimpleNamespace(raw_cell=running)
        return SimpleNamespace(
            history_manager=None if history is None else SimpleNamespace(input_hist_raw=history),
            displayhook=SimpleNamespace(exec_result=SimpleNamespace(info=info)),
        )

    # JupyterLab: the history holds every cell run, the running one included
    assert magics.cells_run_so_far(shell(["", "a = 1", "%load_ext x"], "%load_ext x")) == [
        "a = 1",
        "%load_ext x",
    ]
    # nbval: no history, only the running cell
    assert magics.cells_run_so_far(shell([""], "%load_ext x")) == ["%load_ext x"]
    assert magics.cells_run_so_far(shell(None, "%load_ext x")) == ["%load_ext x"]
    # the running %%requires_gpu cell is not one of those above it
    log = ["n = 1", "%%requires_gpu\nprint(n)\n"]
    assert magics._before(log, "print(n)\n") == ["n = 1"]
    assert magics._before(log, "print(m)\n") == log  # called some other way: all of it counts


ROOT = Path(__file__).resolve().parent.parent
# Exercise 2.2 answered in a style of its own: it passes, and its text is not the solution's.
MY_FROBENIUS = """
def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    logged = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        logged.append(norm.item())
        X = X / norm
    return logged


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    logged = torch.empty(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = A @ X
        logged[i] = torch.linalg.matrix_norm(X)
        X = X / logged[i]
    return logged.tolist()
"""


def test_exercise_2_2_answered_in_its_own_words_shows_the_worked_solutions_gpu_run(
    ipython, monkeypatch
):
    # What the learner sees in the lab: their passing answer is code no GPU ran, so the GPU
    # cell shows the worked solution's reference for the same cell, labelled as such.
    from IPython.utils.capture import capture_output

    from d2lgpu import references

    exercise = nbformat.read(ROOT / "exercises" / "02_tensors.ipynb", as_version=4)
    solution = nbformat.read(ROOT / "solutions" / "02_tensors.ipynb", as_version=4)
    cells = {c.id: c for c in exercise.cells}
    gpu = cells["886af60096f2"]
    twin = next(c for c in solution.cells if c.id == gpu.id)
    recorded = references.find_reference(
        twin.source, earlier=references.earlier_sources(solution.cells, twin.id)
    )
    assert recorded, "the worked solution of 2.2 has no GPU reference to show"
    assert gpu.source == twin.source and "log_norms_at_end" in gpu.source
    assert MY_FROBENIUS.strip().splitlines()[2] not in twin.source  # not the solution's text
    monkeypatch.setattr(magics, "num_gpus", lambda: 0)
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    for cell_id in ("b2230818c24c", "d4b83e25ade2"):  # imports (the extension), sizes
        assert ipython.run_cell(cells[cell_id].source, cell_id=cell_id).success
    ipython.run_cell(MY_FROBENIUS, cell_id="069b2028b38f")
    with capture_output() as checked:
        ipython.run_cell(cells["5e754f90afc8"].source, cell_id="5e754f90afc8")
    assert checked.stdout.startswith("PASS 02.frobenius"), checked.stdout
    with capture_output() as shown:
        ipython.run_cell(gpu.source, cell_id=gpu.id)
    assert shown.stdout == "Skipped: this cell needs a CUDA GPU; 0 are visible here.\n"
    [display] = shown.outputs
    text = display.data["text/plain"]
    assert text == references.format_reference(recorded, torch.__version__, solution=True)
    newest = max(recorded, key=lambda e: e["date"])["device"]
    assert text.startswith(
        f"The worked solution, run on {newest}: your code has not run on a GPU\n"
        f"Recorded on {newest} with torch "
    )
    assert "No GPU reference" not in text and "log_norms_at_end, n=1024" in text
    # the same code in a cell of another id (pasted into a chapter, say): not the solution's
    with capture_output() as shown:
        ipython.run_cell(gpu.source, cell_id="another-cell")
    assert shown.outputs == [] and shown.stdout.endswith(references.OTHER_CELLS_ABOVE + "\n")
