import inspect

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
    "n, text",
    [
        (None, "n/a"),
        (0, "0 B"),
        (512, "512 B"),
        (1023, "1023 B"),
        (1024, "1.0 KiB"),
        (1536, "1.5 KiB"),
        (2**20, "1.0 MiB"),
        (3 * 2**30, "3.0 GiB"),
        (5 * 2**40, "5120.0 GiB"),
        (-1536, "-1.5 KiB"),  # a difference of two counters can be negative
    ],
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


class FakeAllocator:
    """torch.cuda's allocator counters, scripted; records the calls in order."""

    def __init__(self, monkeypatch, allocated, peak, reserved=0):
        self.calls = []
        self.allocated, self.peak, self.reserved = allocated, peak, reserved
        for name in ("synchronize", "reset_peak_memory_stats"):
            monkeypatch.setattr(torch.cuda, name, self._record(name))
        monkeypatch.setattr(torch.cuda, "memory_allocated", self._read("allocated"))
        monkeypatch.setattr(torch.cuda, "max_memory_allocated", self._read("peak"))
        monkeypatch.setattr(torch.cuda, "memory_reserved", self._read("reserved"))

    def _record(self, name):
        return lambda device=None: self.calls.append((name, str(device)))

    def _read(self, name):
        def read(device=None):
            self.calls.append((name, str(device)))
            return getattr(self, name)

        return read


def test_memory_report_reads_the_three_counters_of_that_device(monkeypatch):
    fake = FakeAllocator(monkeypatch, allocated=100, peak=300, reserved=2**20)
    report = memory.memory_report("cuda:1")
    assert (report.device, report.allocated, report.reserved, report.peak) == (
        "cuda:1",
        100,
        2**20,
        300,
    )
    assert {device for _, device in fake.calls} == {"cuda:1"}
    assert report.available
    assert str(report) == "cuda:1: allocated 100 B, reserved 1.0 MiB, peak 300 B"


def test_peak_memory_resets_the_peak_after_queued_work_and_reads_it_after_the_block(monkeypatch):
    fake = FakeAllocator(monkeypatch, allocated=1024, peak=999)
    with memory.peak_memory("cuda:0") as mem:
        fake.calls.append("block")
        fake.allocated, fake.peak = 0, 5 * 1024
    assert fake.calls == [
        ("synchronize", "cuda:0"),  # earlier queued work first
        ("reset_peak_memory_stats", "cuda:0"),
        ("allocated", "cuda:0"),
        "block",
        ("synchronize", "cuda:0"),  # the block's queued work is in the peak
        ("peak", "cuda:0"),
    ]
    assert (mem.start, mem.peak, mem.extra) == (1024, 5 * 1024, 4 * 1024)
    assert (
        mem.available and str(mem) == "cuda:0: peak 5.0 KiB (4.0 KiB above the start of the block)"
    )


def test_peak_memory_is_read_even_when_the_block_raises(monkeypatch):
    FakeAllocator(monkeypatch, allocated=0, peak=2048)
    with pytest.raises(RuntimeError, match="boom"):
        with memory.peak_memory(torch.device("cuda", 0)) as mem:
            raise RuntimeError("boom")
    assert mem.peak == 2048


def test_the_cpu_touches_no_cuda_counter(monkeypatch):
    fake = FakeAllocator(monkeypatch, allocated=1, peak=1)
    assert memory.memory_report("cpu").peak is None
    with memory.peak_memory("cpu") as mem:
        pass
    assert mem.start is None and fake.calls == []


def test_saved_for_backward_counts_activations_not_parameters():
    net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    x = torch.randn(5, 8)
    with memory.saved_for_backward(exclude=net.parameters()) as saved:
        out = net(x)
    # Linear 1 saves x (5x8), ReLU its output (5x16), which Linear 2 saves too: one storage
    assert saved.bytes == 4 * (5 * 8 + 5 * 16) and saved.count == 2
    assert "160 B saved for backward in 2 storages" == str(memory.SavedTensors(160, 2))
    out.sum().backward()  # the graph still works: the hooks return the tensors themselves
    assert net[0].weight.grad is not None


def test_saved_for_backward_sees_only_a_checkpoints_input():
    from torch.utils.checkpoint import checkpoint

    net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    x = torch.randn(5, 8, requires_grad=True)
    with memory.saved_for_backward(exclude=net.parameters()) as saved:
        out = checkpoint(net, x, use_reentrant=False)
    assert saved.bytes == x.nbytes and saved.count == 1
    with memory.saved_for_backward() as with_weights:
        net(x)
    assert with_weights.bytes > saved.bytes + sum(p.nbytes for p in net.parameters()) // 2
    out.sum().backward()
    assert x.grad is not None


def test_saved_for_backward_rejects_what_is_not_a_tensor():
    with pytest.raises(TypeError, match="exclude must hold tensors"):
        with memory.saved_for_backward(exclude=[1]):
            pass


def test_saved_for_backward_counts_a_views_whole_storage_once():
    # mul saves the other operand for w's gradient: two slices of one 100 x 8 tensor
    a, w = torch.randn(100, 8), torch.randn(10, 8, requires_grad=True)
    with memory.saved_for_backward() as saved:
        first, second = a[:10] * w, a[50:60] * w
    # what autograd keeps alive is the storage the views share, not the views' 10 rows
    assert (saved.bytes, saved.count) == (a.untyped_storage().nbytes(), 1) == (3200, 1)
    (first + second).sum().backward()


def test_saved_for_backward_excludes_a_storage_through_any_view_of_it():
    a, w = torch.randn(100, 8), torch.randn(10, 8, requires_grad=True)
    with memory.saved_for_backward(exclude=[a[50:]]) as saved:  # a view that starts elsewhere
        a[:10] * w
    assert (saved.bytes, saved.count) == (0, 0)


def test_saved_for_backward_keeps_each_storage_alive_so_a_freed_address_is_not_reused():
    w = torch.randn(64, 64, requires_grad=True)
    with memory.saved_for_backward(exclude=[w]) as saved:
        for _ in range(5):
            # the product's graph is dropped at once; without the course keeping the saved
            # input alive, the next randn could get the same address and look like the same
            torch.randn(64, 64) * w
    assert (saved.bytes, saved.count) == (5 * 64 * 64 * 4, 5)


def test_saved_for_backward_counts_no_storage_of_zero_bytes():
    # an empty tensor holds no memory (its storage's address is null, shared by all of them);
    # torch 2.11's checkpoint saves such a placeholder beside its inputs
    e, w = torch.empty(0), torch.empty(0, requires_grad=True)
    x, v = torch.randn(4, 8), torch.randn(4, 8, requires_grad=True)
    with memory.saved_for_backward() as saved:
        e * w
        x * v
    assert (saved.bytes, saved.count) == (x.nbytes, 1)  # x, for v's gradient; not e


def test_saved_for_backward_counts_a_wrapper_subclass_by_the_tensors_it_wraps():
    from torch.testing._internal.two_tensor import TwoTensor

    a, b = torch.randn(10, 8), torch.randn(10, 8)
    wrapped = TwoTensor(a, b)  # like a DTensor: a tensor whose own storage cannot be read
    with pytest.raises(RuntimeError, match="invalid python storage"):
        wrapped.untyped_storage().data_ptr()
    w = torch.randn(10, 8, requires_grad=True)
    with memory.saved_for_backward(exclude=[w]) as saved:
        out = wrapped * w  # saves wrapped (for w's gradient)
    assert (saved.bytes, saved.count) == (a.nbytes + b.nbytes, 2)
    with memory.saved_for_backward(exclude=[TwoTensor(a, b), w]) as excluded:
        wrapped * w
    assert (excluded.bytes, excluded.count) == (0, 0)  # excluded through what it wraps
    out.sum().backward()
    assert w.grad is not None


@pytest.mark.filterwarnings("ignore:A saved_tensors_hooks context")
def test_saved_for_backward_counts_a_selective_checkpoints_saves_only_when_asked():
    import functools

    from torch.utils.checkpoint import (
        CheckpointPolicy,
        checkpoint,
        create_selective_checkpoint_contexts,
    )

    lin = torch.nn.Linear(8, 32)
    x = torch.randn(4, 8, requires_grad=True)

    def save_mm(ctx, op, *args, **kwargs):
        keep = op in (torch.ops.aten.addmm.default, torch.ops.aten.mm.default)
        return CheckpointPolicy.MUST_SAVE if keep else CheckpointPolicy.PREFER_RECOMPUTE

    def fn(h):
        return torch.tanh(lin(h))

    context = functools.partial(create_selective_checkpoint_contexts, save_mm)
    with memory.saved_for_backward(exclude=lin.parameters()) as legacy:
        checkpoint(fn, x, use_reentrant=False, context_fn=context)
    assert legacy.bytes == x.nbytes  # by default, the checkpoint's input only
    if "respect_saved_tensors_hooks" not in inspect.signature(checkpoint).parameters:
        pytest.skip(
            f"torch {torch.__version__} has no checkpoint(respect_saved_tensors_hooks=...): "
            "a selective checkpoint's saves cannot reach saved_tensors_hooks"
        )
    counted = {}
    for respect in (True, False):
        with memory.saved_for_backward(exclude=lin.parameters()) as saved:
            checkpoint(fn, x, use_reentrant=False, context_fn=context,
                       respect_saved_tensors_hooks=respect)  # fmt: skip
        counted[respect] = saved.bytes
    assert counted[False] == x.nbytes  # the checkpoint's input only
    assert counted[True] == x.nbytes + 4 * 32 * 4  # and the product's output, 4 x 32 floats
