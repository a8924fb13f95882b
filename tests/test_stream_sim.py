"""d2lgpu.stream_sim: the simulated GPU orders work as CUDA streams do, and finds races."""

import pytest
import torch

from d2lgpu.stream_sim import simulated_cuda


def named_batches(gpu, n, pin=True):
    return [gpu.name_batch(torch.full((2, 2), float(i)).pin_memory() if pin else
                           torch.full((2, 2), float(i)), i) for i in range(n)]  # fmt: skip


def test_torch_cuda_is_the_simulators_inside_and_restored_after():
    saved = torch.cuda.Stream, torch.cuda.synchronize, torch.cuda.is_available
    with simulated_cuda() as gpu:
        assert torch.cuda.is_available()
        s = torch.cuda.Stream()
        assert torch.cuda.current_stream() is gpu.default
        with torch.cuda.stream(s):
            assert torch.cuda.current_stream() is s
        assert torch.cuda.current_stream() is gpu.default and s != gpu.default
        x = torch.ones(3).pin_memory()
        assert x.is_pinned() and not torch.ones(3).is_pinned()
        y = x.to(gpu.device, non_blocking=True)
        assert y.is_cuda and y.device == gpu.device
    assert (torch.cuda.Stream, torch.cuda.synchronize, torch.cuda.is_available) == saved


def test_one_stream_is_serial_and_two_streams_overlap():
    def run(side):
        with simulated_cuda(copy_s=1.0, compute_s=2.0) as gpu:
            compute = gpu.kernel(lambda x: x * 2)
            copy_stream = torch.cuda.Stream() if side else gpu.default
            batches, results = named_batches(gpu, 3), []
            for b in batches:
                with torch.cuda.stream(copy_stream):
                    x = b.to(gpu.device, non_blocking=True)
                    done = torch.cuda.Event()
                    done.record()
                torch.cuda.current_stream().wait_event(done)
                x.record_stream(torch.cuda.current_stream())
                results.append(compute(x))
        return gpu, results

    serial, _ = run(side=False)
    assert serial.elapsed() == pytest.approx(9.0, abs=1e-3)  # 3 x (1 + 2)
    piped, results = run(side=True)
    assert piped.elapsed() == pytest.approx(1.0 + 3 * 2.0, abs=1e-3)
    assert [r[0, 0].item() for r in results] == [0.0, 2.0, 4.0]  # real values
    assert not serial.hazards and not piped.hazards
    assert "side stream 1: copies" in piped.timeline()


def test_hazards_missing_wait_freed_memory_and_host_waits_are_recorded():
    with simulated_cuda() as gpu:
        side, compute = torch.cuda.Stream(), gpu.kernel(lambda x: x + 1)
        (b,) = named_batches(gpu, 1)
        with torch.cuda.stream(side):
            x = b.to(gpu.device, non_blocking=True)
        compute(x)  # no wait: a read that may race the copy
        del x  # freed while the compute may still read it, without record_stream
        kinds = [h.kind for h in gpu.hazards]
        torch.cuda.synchronize()
        torch.ones(2, device=gpu.device).sum().item()
    assert kinds == ["read", "freed"]
    assert "may read batch 0's memory before copy 0" in str(gpu.hazards[0])
    assert [why for why, _ in gpu.host_waits] == ["torch.cuda.synchronize()", "item()"]


def test_pageable_and_blocking_copies_hold_the_host():
    with simulated_cuda(copy_s=1.0, compute_s=1.0, pageable_factor=4.0) as gpu:
        (pageable,) = named_batches(gpu, 1, pin=False)
        pageable.to(gpu.device, non_blocking=True)
        assert gpu.host_time == pytest.approx(4.0, abs=1e-3)
        torch.ones(2).pin_memory().to(gpu.device)  # pinned, but blocking
    assert [why for why, _ in gpu.host_waits] == [
        "a copy from pageable memory",
        "a copy without non_blocking=True",
    ]


def test_event_timing_and_wait_stream():
    with simulated_cuda(copy_s=2.0) as gpu:
        side = torch.cuda.Stream()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        with torch.cuda.stream(side):
            start.record()
            x = torch.ones(4).pin_memory().to(gpu.device, non_blocking=True)
            end.record()
        torch.cuda.current_stream().wait_stream(side)
        gpu.kernel(lambda t: t * 3)(x)
        assert start.elapsed_time(end) == pytest.approx(2000.0, abs=0.1)  # milliseconds
        with pytest.raises(RuntimeError, match="enable_timing"):
            torch.cuda.Event().elapsed_time(end)
        with pytest.raises(TypeError, match="torch.cuda.Stream"):
            side.wait_stream("the default stream")
    assert not gpu.hazards


@pytest.mark.parametrize(
    "kwargs, named",
    [({"copy_s": -1}, "copy_s"), ({"compute_s": "1"}, "compute_s"),
     ({"pageable_factor": 0.5}, "pageable_factor"), ({"launch_s": float("inf")}, "launch_s")],
)  # fmt: skip
def test_bad_arguments_are_named(kwargs, named):
    with pytest.raises(ValueError, match=named), simulated_cuda(**kwargs):
        pass


def two_products(lanes, sms, seconds=1.0, total=100):
    """Two kernels of ``sms`` SMs each, on ``lanes`` streams (1: one after the other)."""
    with simulated_cuda(copy_s=0.0, launch_s=0.0, sms=total) as gpu:
        product = gpu.kernel(lambda a: a @ a, "matmul", sms=sms, seconds=seconds)
        streams = [torch.cuda.Stream() for _ in range(lanes)]
        a = torch.eye(2).to(gpu.device)
        results = []
        for i in range(2):
            with torch.cuda.stream(streams[i % lanes]):
                results.append(product(a))
        torch.cuda.synchronize()
    return gpu, results


def test_kernels_that_leave_sms_idle_overlap_on_two_streams_and_not_on_one():
    one, _ = two_products(lanes=1, sms=20)
    two, results = two_products(lanes=2, sms=20)
    assert one.elapsed() == pytest.approx(2.0)  # one stream: in order, whatever the SMs
    assert two.elapsed() == pytest.approx(1.0)  # 20 + 20 of 100 SMs: side by side
    assert [op.flags["sms"] for op in two.ops if op.kind == "kernel"] == [20, 20]
    assert all(torch.equal(r, torch.eye(2)) for r in results)  # real values
    lanes = {i.lane for i in two.intervals()}
    assert lanes == {"side stream 1: kernels", "side stream 2: kernels"}


def test_kernels_that_fill_the_gpu_run_one_after_the_other_on_any_number_of_streams():
    for sms in (None, 100, 1000):  # the default, all of them, more blocks than SMs
        gpu, _ = two_products(lanes=2, sms=sms)
        assert gpu.elapsed() == pytest.approx(2.0), sms
        assert [op.flags["sms"] for op in gpu.ops if op.kind == "kernel"] == [100, 100]
    fits, _ = two_products(lanes=2, sms=50)  # exactly fills the GPU together
    too_many, _ = two_products(lanes=2, sms=51)
    assert fits.elapsed() == pytest.approx(1.0) and too_many.elapsed() == pytest.approx(2.0)


def test_a_kernel_waits_for_enough_free_sms_and_kernels_start_in_launch_order():
    with simulated_cuda(copy_s=0.0, launch_s=0.0, sms=100) as gpu:
        streams = [torch.cuda.Stream() for _ in range(4)]
        x = torch.ones(2).to(gpu.device)
        demands = [(40, 1.0), (40, 3.0), (40, 1.0), (10, 1.0)]
        for s, (sms, seconds) in zip(streams, demands, strict=True):
            with torch.cuda.stream(s):
                gpu.kernel(lambda t: t + 1, sms=sms, seconds=seconds)(x)
    starts = [op.start for op in gpu.ops if op.kind == "kernel"]
    # the third needs 40 SMs and 20 are free: it starts when the first ends; the fourth would
    # fit beside the first two, but starts no earlier than the third, launched before it
    assert starts == pytest.approx([0.0, 0.0, 1.0, 1.0])
    assert gpu.elapsed() == pytest.approx(3.0)


def test_kernel_sms_and_seconds_are_checked():
    with simulated_cuda() as gpu:
        for bad in (0, -1, 1.5, "2", True):
            with pytest.raises(ValueError, match="sms"):
                gpu.kernel(lambda t: t, sms=bad)
        with pytest.raises(ValueError, match="seconds"):
            gpu.kernel(lambda t: t, seconds=-1.0)
    for bad in (0, 2.5):
        with pytest.raises(ValueError, match="sms"), simulated_cuda(sms=bad):
            pass
