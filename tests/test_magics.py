import pytest
import torch

from d2lgpu import magics


def test_without_the_gpu_the_cell_is_skipped_with_a_reason(monkeypatch, capsys):
    monkeypatch.setattr(magics, "num_gpus", lambda: 1)
    namespace = {}
    magics.requires_gpu("2", "ran = True\nraise RuntimeError('must not run')", namespace=namespace)
    assert "ran" not in namespace
    assert capsys.readouterr().out.startswith("Skipped: this cell needs 2 CUDA GPUs and 1 visible.")


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


def test_the_extension_registers_the_cell_magic(monkeypatch, capsys):
    from IPython.testing.globalipapp import start_ipython

    ip = start_ipython()
    monkeypatch.setattr(magics, "num_gpus", lambda: 0)
    ip.run_line_magic("load_ext", "d2lgpu.magics")
    ip.run_cell("%%requires_gpu\nskipped_value = 1\n")
    assert "skipped_value" not in ip.user_ns
    assert "Skipped: this cell needs a CUDA GPU and 0 visible." in capsys.readouterr().out


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


def test_on_a_mac_the_skip_says_its_gpu_is_not_cuda(monkeypatch, capsys):
    monkeypatch.setattr(magics, "num_gpus", lambda: 0)
    monkeypatch.setattr(magics, "mps_available", lambda: True)
    magics.requires_gpu("", "ran = True", namespace=(namespace := {}))
    assert "ran" not in namespace
    assert capsys.readouterr().out.startswith(
        "Skipped: this cell needs a CUDA GPU and 0 visible. This Mac's GPU (mps) is not CUDA. "
        "The text above says what it shows.\nNo GPU reference output exists for this cell yet"
    )
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    assert "mps" not in magics.skip_message(1, 0)


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
