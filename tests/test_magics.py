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
