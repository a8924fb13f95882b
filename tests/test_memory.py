import pytest
import torch

from d2lgpu import memory


def test_cpu_report_says_counters_are_not_available():
    report = memory.memory_report("cpu")
    assert not report.available and report.allocated is None
    assert "not available (CUDA only)" in str(report)


def test_peak_memory_on_cpu_runs_the_block_and_answers_clearly():
    ran = []
    with memory.peak_memory(torch.device("cpu")) as mem:
        ran.append(torch.ones(10).sum())
    assert ran and not mem.available and mem.peak is None and mem.extra is None
    assert "peak memory is not available (CUDA only)" in str(mem)


@pytest.mark.parametrize(
    "n, text", [(None, "n/a"), (512, "512 B"), (1536, "1.5 KiB"), (3 * 2**30, "3.0 GiB")]
)
def test_format_bytes(n, text):
    assert memory.format_bytes(n) == text


@pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")
def test_peak_memory_sees_a_temporary_allocation_on_cuda():
    with memory.peak_memory("cuda") as mem:
        x = torch.empty(64 * 2**20, dtype=torch.uint8, device="cuda")
        del x
    assert mem.extra >= 64 * 2**20
    report = memory.memory_report("cuda")
    assert report.reserved >= report.allocated


def test_mps_reports_allocated_and_driver_bytes_but_no_peak(monkeypatch):
    monkeypatch.setattr(torch.mps, "current_allocated_memory", lambda: 3 * 2**20)
    monkeypatch.setattr(torch.mps, "driver_allocated_memory", lambda: 8 * 2**20)
    report = memory.memory_report("mps")
    assert (report.allocated, report.reserved, report.peak) == (3 * 2**20, 8 * 2**20, None)
    assert report.available
    assert str(report) == "mps: allocated 3.0 MiB, reserved 8.0 MiB, peak not reported on mps"
    with memory.peak_memory("mps") as mem:
        pass
    assert not mem.available and mem.peak is None
    assert "PyTorch reports no peak on mps" in str(mem)
