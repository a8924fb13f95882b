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
    heading = (
        "Recorded on an NVIDIA H100 80GB HBM3, torch 2.11.0+cu130 (CUDA 13.0), 2026-11-23: "
        "not this machine"
    )
    note = "recorded with torch 2.11.0; this machine has torch 2.14.1"
    assert display.data == {
        "text/plain": f"{heading}\n{note}\n    a < b & c",
        "text/html": (
            '<div style="border: 1px solid #999; border-left: 4px solid #e69f00; '
            'padding: 0.3em 0.8em; margin: 0.2em 0">'
            f"<strong>{heading}</strong><br><em>{note}</em>"
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


def test_nbval_skips_cuda_cells_on_a_mac_saying_mps_is_not_cuda(monkeypatch):
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(
        "root_conftest", Path(__file__).resolve().parent.parent / "conftest.py"
    )
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    monkeypatch.setattr(conftest, "_visible_gpus", lambda: 0)
    monkeypatch.setattr(conftest, "mps_available", lambda: True)

    class Cell:
        def __init__(self, tags):
            self.cell = {"metadata": {"tags": tags}}
            self.marks = []

        def add_marker(self, mark):
            self.marks.append(mark)

    gpu_cell, plain_cell = Cell(["requires-gpu"]), Cell([])
    conftest.pytest_collection_modifyitems(None, [gpu_cell, plain_cell])
    (mark,) = gpu_cell.marks
    assert mark.name == "skip" and mark.kwargs["reason"] == (
        "requires CUDA (0 visible; this Mac's GPU (mps) is not CUDA)"
    )
    assert plain_cell.marks == []
