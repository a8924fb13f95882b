"""d2lgpu.stream_sim: the simulated GPU orders work as CUDA streams do, and finds races."""

import re

import pytest
import torch

from d2lgpu.stream_sim import simulated_cuda

FREE_PINNING = float("inf")  # pin_gb_s: pin_memory() costs no host time


def named_batches(gpu, n, pin=True):
    """Batches 0.0, 1.0, ... of 2 x 2, pinned beforehand (at no cost) or pageable."""
    return [gpu.name_batch(torch.full((2, 2), float(i)), i, pinned=pin) for i in range(n)]


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


def test_the_current_stream_is_the_calling_threads_own():
    import threading

    seen = []
    with simulated_cuda() as gpu:
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            worker = threading.Thread(target=lambda: seen.append(torch.cuda.current_stream()))
            worker.start()
            worker.join()
            assert torch.cuda.current_stream() is s  # this thread's is unchanged
    assert seen == [gpu.default]  # a new thread starts on the default stream, as in CUDA


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
    assert gpu.hazards[1].batch == 0 and gpu.hazards[1].first.label == "compute 0"
    assert str(gpu.hazards[1]) == (
        "batch 0's device memory was freed while compute 0 on default stream may still use it"
    )
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
        end.synchronize()  # as on a GPU, the times can be read once both events have completed
        assert start.elapsed_time(end) == pytest.approx(2000.0, abs=0.1)  # milliseconds
        with pytest.raises(RuntimeError, match="enable_timing"):
            torch.cuda.Event().elapsed_time(end)
        with pytest.raises(TypeError, match="torch.cuda.Stream"):
            side.wait_stream("the default stream")
    assert not gpu.hazards


@pytest.mark.parametrize(
    "kwargs, named",
    [({"copy_s": -1}, "copy_s"), ({"compute_s": "1"}, "compute_s"),
     ({"pageable_factor": 0.5}, "pageable_factor"), ({"launch_s": float("inf")}, "launch_s"),
     ({"d2h_s": -1e-3}, "d2h_s"), ({"pin_gb_s": 0}, "pin_gb_s"), ({"pin_gb_s": "10"}, "pin_gb_s")],
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
            with pytest.raises(ValueError, match="^sms must be an int >= 1 or None"):
                gpu.kernel(lambda t: t, sms=bad)
        with pytest.raises(ValueError, match="^seconds must be a finite number of seconds >= 0"):
            gpu.kernel(lambda t: t, seconds=-1.0)
        gpu.kernel(lambda t: t, sms=1, seconds=0.0)(torch.ones(1))  # the smallest allowed
    for bad in (0, 2.5):
        with pytest.raises(ValueError, match="sms"), simulated_cuda(sms=bad):
            pass


# ---------------------------------------------------------------------------------------------
# The schedule, computed by hand: three engines (copies in, copies out, the SMs) at once


def test_the_schedule_matches_one_computed_by_hand():
    # Every time is a multiple of 1/8 s, exact in binary: the comparison is exact.
    with simulated_cuda(copy_s=1.0, d2h_s=2.0, launch_s=0.125, sms=100) as gpu:
        side, other = torch.cuda.Stream(), torch.cuda.Stream()
        b0, b1, b2 = named_batches(gpu, 3)
        x0 = b0.to(gpu.device, non_blocking=True)  # default stream
        r0 = gpu.kernel(lambda t: t * 2, sms=40, seconds=2.0)(x0)
        with torch.cuda.stream(side):
            x1 = b1.to(gpu.device, non_blocking=True)
            gpu.kernel(lambda t: t * 2, sms=40, seconds=2.0)(x1)
        r0_host = r0.to("cpu", non_blocking=True)  # default stream, after compute 0
        with torch.cuda.stream(side):
            b2.to(gpu.device, non_blocking=True)  # after compute 1, beside the copy to host
        with torch.cuda.stream(other):
            ones = torch.ones(2, device=gpu.device)
            gpu.kernel(lambda t: t + 1, sms=60, seconds=1.0)(ones)
        torch.cuda.synchronize()
    # host: each launch costs 1/8 s, so the i-th op (from 0) is queued at (i + 1) / 8.
    # 0 copy 0 (in):     queued 0.125, engine free        -> 0.125 .. 1.125
    # 1 compute 0:       after copy 0 on its stream        -> 1.125 .. 3.125, 40 SMs
    # 2 copy 1 (in):     the copy-in engine is busy until 1.125 -> 1.125 .. 2.125
    # 3 compute 1:       after copy 1; 40 + 40 SMs fit     -> 2.125 .. 4.125, beside compute 0
    # 4 to host 0 (out): after compute 0 on its stream     -> 3.125 .. 5.125 (d2h_s = 2)
    # 5 copy 2 (in):     after compute 1 on its stream     -> 4.125 .. 5.125, beside the copy out
    # 6 compute:         launched after compute 1, so not before 2.125; 60 SMs: 80 are busy
    #                    then, 40 once compute 0 ends, and 40 + 60 = 100 fits -> 3.125 .. 4.125
    want = [
        ("copy 0", "default stream", 0.125, 1.125),
        ("compute 0", "default stream", 1.125, 3.125),
        ("copy 1", "side stream 1", 1.125, 2.125),
        ("compute 1", "side stream 1", 2.125, 4.125),
        ("to host 0", "default stream", 3.125, 5.125),
        ("copy 2", "side stream 1", 4.125, 5.125),
        ("compute", "side stream 2", 3.125, 4.125),
    ]
    got = [(op.label, op.stream.name, op.start, op.end) for op in gpu.ops if op.kind != "event"]
    assert got == want
    assert [op.flags.get("direction") for op in gpu.ops] == ["h2d", None, "h2d", None, "d2h",
                                                            "h2d", None]  # fmt: skip
    assert [op.flags.get("sms") for op in gpu.ops if op.kind == "kernel"] == [40, 40, 60]
    assert gpu.host_waits == [("torch.cuda.synchronize()", 7)]
    assert gpu.host_time == gpu.elapsed() == 5.125
    assert not gpu.hazards
    assert torch.equal(r0_host, torch.full((2, 2), 0.0))  # batch 0 is zeros, times 2: landed
    assert gpu.engine_free == {"h2d": 5.125, "d2h": 5.125}


def test_one_engine_each_way_copies_in_one_direction_take_turns():
    with simulated_cuda(copy_s=1.0, launch_s=0.0) as gpu:
        streams = [torch.cuda.Stream() for _ in range(2)]
        for s, b in zip(streams, named_batches(gpu, 2), strict=True):
            with torch.cuda.stream(s):
                b.to(gpu.device, non_blocking=True)
    assert [(op.start, op.end) for op in gpu.ops] == [(0.0, 1.0), (1.0, 2.0)]


# ---------------------------------------------------------------------------------------------
# Copies to the host, the read-before-sync race, pinning


def test_a_non_blocking_copy_to_the_host_returns_at_once_and_an_early_read_is_stale():
    with simulated_cuda(copy_s=1.0, compute_s=3.0, launch_s=0.0) as gpu:
        (b,) = named_batches(gpu, 1)
        y = gpu.kernel(lambda t: t + 5)(b.to(gpu.device, non_blocking=True))
        out = y.to("cpu", non_blocking=True)
        copied = torch.cuda.Event()
        copied.record()
        assert gpu.host_time == 0.0 and gpu.host_waits == []  # the host went on
        assert out.is_pinned() and not out.is_cuda  # PyTorch pins the destination
        early = out.sum().item()  # a CPU tensor: nothing waits, the copy has not landed
        assert [h.kind for h in gpu.hazards] == ["host read"]
        assert "before a sync" in str(gpu.hazards[0]) and "to host 0" in str(gpu.hazards[0])
        assert gpu.hazards[0].batch == 0
        copied.synchronize()  # the host waits for the copy: 1 + 3 + 1 s
        assert gpu.host_time == 5.0
        late = out.sum().item()
        assert len(gpu.hazards) == 1  # after the sync the read is safe
    assert early == 0.0 and late == 4 * 5.0


def test_copy_into_pinned_memory_keeps_the_old_values_until_a_sync():
    with simulated_cuda(copy_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        landing = torch.full((3,), -1.0).pin_memory()
        x = torch.arange(3.0).pin_memory().to(gpu.device, non_blocking=True)
        landing.copy_(x, non_blocking=True)
        stale = landing.clone()  # read before any sync: what the memory held
        torch.cuda.current_stream().synchronize()
        fresh = landing.clone()
        pageable = torch.zeros(3)
        pageable.copy_(x, non_blocking=True)  # into pageable memory: the host waits
    assert torch.equal(stale, torch.full((3,), -1.0)) and torch.equal(fresh, torch.arange(3.0))
    assert torch.equal(pageable, torch.arange(3.0))
    assert [h.kind for h in gpu.hazards] == ["host read"]
    whys = [why for why, _ in gpu.host_waits]
    assert whys[0] == "default stream.synchronize()" and whys[1].startswith("copy_ of a device")
    assert gpu.ops[-1].end == 2.0 + 3.0  # pageable: pageable_factor (3) times d2h_s (1)


def test_a_read_after_the_copy_ended_is_right_but_still_a_hazard_and_query_is_a_sync():
    with simulated_cuda(copy_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        side = torch.cuda.Stream()
        x = torch.ones(2).pin_memory().to(gpu.device, non_blocking=True)
        out = x.to("cpu", non_blocking=True)  # default stream: 1 .. 2
        with torch.cuda.stream(side):
            gpu.kernel(lambda t: t, seconds=2.0)(torch.zeros(2, device=gpu.device))
        side.synchronize()  # the host waits until 2: the copy has just landed, unknown to the code
        assert out.sum().item() == 2.0  # right, by luck of the timing
        assert [h.kind for h in gpu.hazards] == ["host read"]
    with simulated_cuda(copy_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        x = torch.ones(2).pin_memory().to(gpu.device, non_blocking=True)
        out = x.to("cpu", non_blocking=True)  # 1 .. 2
        done = torch.cuda.Event()
        done.record()
        assert not done.query()  # host time 0: not yet, and no sync
        gpu.host_time = 10.0  # the host did other work meanwhile
        assert done.query()  # True: the host now knows the copy is done, as after a sync
        assert out.sum().item() == 2.0 and not gpu.hazards
        out2 = x.to("cpu", non_blocking=True)  # 10 .. 11
        gpu.host_time = 11.0
        assert torch.cuda.current_stream().query()  # a stream's query is a sync too
        assert out2.sum().item() == 2.0 and not gpu.hazards
        assert gpu.host_waits == []  # a query never waits


def test_a_blocking_copy_to_the_host_waits_for_its_stream_and_the_copy():
    with simulated_cuda(copy_s=1.0, compute_s=2.0, d2h_s=0.5, launch_s=0.0,
                        pin_gb_s=FREE_PINNING) as gpu:  # fmt: skip
        x = torch.ones(2).pin_memory().to(gpu.device, non_blocking=True)
        y = gpu.kernel(lambda t: t * 3)(x)
        assert torch.equal(y.cpu(), torch.full((2,), 3.0))
        assert gpu.host_time == 1.0 + 2.0 + 0.5 * 3.0  # into pageable memory: 3 x slower
        assert torch.equal(y.to("cpu"), torch.full((2,), 3.0))
    assert [why for why, _ in gpu.host_waits] == [".cpu()", ".to('cpu')"]
    assert [op.flags["direction"] for op in gpu.ops if op.kind == "copy"] == ["h2d", "d2h", "d2h"]
    assert not gpu.hazards


def test_pin_memory_holds_the_host_in_proportion_to_the_bytes_and_is_free_when_pinned():
    with simulated_cuda(launch_s=0.0, pin_gb_s=2.0) as gpu:
        pageable = gpu.name_batch(torch.zeros(1000), 7)  # 4000 bytes: 2 us at 2 GB/s
        pinned = pageable.pin_memory()
        assert pinned.is_pinned() and not pageable.is_pinned()
        assert gpu.host_time == pytest.approx(4000 / 2e9, rel=1e-12, abs=0)
        assert pinned.pin_memory() is pinned  # already pinned: the same tensor, no cost
        big = torch.zeros(3000).pin_memory()  # three times the bytes, three times the time
        assert gpu.host_time == pytest.approx(4 * 4000 / 2e9, rel=1e-12, abs=0)
        given = gpu.name_batch(torch.zeros(10), 0, pinned=True)  # pinned beforehand: free
        assert given.is_pinned() and given.pin_memory() is given
        assert gpu.host_time == pytest.approx(4 * 4000 / 2e9, rel=1e-12, abs=0)
        assert big.is_pinned() and gpu.batch_of(pinned) == 7
    # every call is kept, the free ones as intervals of no time, which the timeline leaves out
    assert [(iv.lane, iv.label) for iv in gpu.host_work] == [
        ("host: pin_memory()", "7"),
        ("host: pin_memory()", "7"),
        ("host: pin_memory()", "."),
        ("host: pin_memory()", "0"),
    ]
    took = [iv.end - iv.start for iv in gpu.host_work]
    assert took == [pytest.approx(4000 / 2e9), 0.0, pytest.approx(12000 / 2e9), 0.0]
    assert [iv.label for iv in gpu.intervals() if iv.lane == "host: pin_memory()"] == ["7", "."]
    with pytest.raises(ValueError, match="pinned must be True, False or None"):
        with simulated_cuda() as gpu:
            gpu.name_batch(torch.zeros(1), 0, pinned="yes")


def test_a_compute_that_does_not_wait_for_its_copy_computes_on_what_the_memory_held():
    def run(wait, compute_first=0.0):
        with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0) as gpu:
            side = torch.cuda.Stream()
            if compute_first:  # the default stream is busy that long before the compute
                gpu.kernel(lambda t: t, seconds=compute_first)(torch.zeros(1, device=gpu.device))
            results = []
            for b in named_batches(gpu, 3):
                with torch.cuda.stream(side):
                    x = b.to(gpu.device, non_blocking=True)
                if wait:
                    torch.cuda.current_stream().wait_stream(side)
                x.record_stream(torch.cuda.current_stream())
                results.append(gpu.kernel(lambda t: t + 10)(x))
        return gpu, [r[0, 0].item() for r in results]

    gpu, got = run(wait=True)
    assert got == [10.0, 11.0, 12.0] and not gpu.hazards
    gpu, got = run(wait=False)  # compute i starts at i, copy i ends at i + 1: all too early
    assert got == [10.0, 10.0, 10.0]  # zeros + 10: fresh memory, not the batches
    assert [op.flags.get("stale", False) for op in gpu.ops if op.kind == "kernel"] == [True] * 3
    assert [h.kind for h in gpu.hazards] == ["read"] * 3
    gpu, got = run(wait=False, compute_first=1.0)  # each compute starts as its copy ends
    assert got == [10.0, 11.0, 12.0]  # just in time: the right values
    assert [h.kind for h in gpu.hazards] == ["read"] * 3  # still a race, listed


def test_a_double_buffer_read_too_early_holds_the_previous_batch():
    with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0) as gpu:
        side, buf = torch.cuda.Stream(), torch.empty(2, 2, device=gpu.device)
        side.wait_stream(torch.cuda.current_stream())
        results = []
        for b in named_batches(gpu, 3):
            with torch.cuda.stream(side):
                buf.copy_(b, non_blocking=True)
            results.append(gpu.kernel(lambda t: t.clone())(buf))  # no wait for the copy
    # compute i (i .. i + 1) reads buf before copy i (i .. i + 1) ends: what buf held, batch
    # i - 1 (for compute 0, uninitialised memory, kept as torch.empty made it)
    assert torch.equal(results[1], torch.zeros(2, 2))  # batch 0's values: stale
    assert torch.equal(results[2], torch.ones(2, 2))  # batch 1's
    assert all(op.flags.get("stale") for op in gpu.ops if op.kind == "kernel" and op.end > 0)


def test_a_copy_to_the_host_that_does_not_wait_for_the_copy_in_reads_what_the_memory_held():
    with simulated_cuda(copy_s=1.0, launch_s=0.0) as gpu:
        side = torch.cuda.Stream()
        (b,) = named_batches(gpu, 2)[1:]
        with torch.cuda.stream(side):
            x = b.to(gpu.device, non_blocking=True)  # batch 1: ones
        early = x.cpu()  # the default stream does not wait for the side stream
        torch.cuda.synchronize()
        late = x.cpu()
    assert torch.equal(early, torch.zeros(2, 2)) and torch.equal(late, torch.ones(2, 2))
    assert [h.kind for h in gpu.hazards] == ["read"]


def test_work_queued_after_a_host_sync_follows_what_the_host_waited_for():
    for sync in ("device", "stream", "event"):
        with simulated_cuda(copy_s=1.0, launch_s=0.0) as gpu:
            side = torch.cuda.Stream()
            (b,) = named_batches(gpu, 1)
            with torch.cuda.stream(side):
                x = b.to(gpu.device, non_blocking=True)
                copied = side.record_event()
            if sync == "device":
                torch.cuda.synchronize()
            elif sync == "stream":
                side.synchronize()
            else:
                copied.synchronize()
            x.record_stream(torch.cuda.current_stream())
            y = gpu.kernel(lambda t: t + 1)(x)  # no GPU-side wait, but the host waited
        assert not gpu.hazards, (sync, [str(h) for h in gpu.hazards])
        assert torch.equal(y, torch.ones(2, 2)) and gpu.ops[-1].start == 1.0


def test_the_timeline_draws_each_stream_and_engine_on_its_own_row():
    with simulated_cuda(copy_s=1.0, compute_s=2.0, d2h_s=1.0, launch_s=0.0, pin_gb_s=4e-9) as gpu:
        side = torch.cuda.Stream()
        (b,) = named_batches(gpu, 1, pin=False)
        pinned = b.pin_memory()  # 16 bytes at 4e-9 GB/s: the host pins for 4 s
        with torch.cuda.stream(side):
            x = pinned.to(gpu.device, non_blocking=True)  # 4 .. 5
        torch.cuda.current_stream().wait_stream(side)
        y = gpu.kernel(lambda t: t * 2)(x)  # 5 .. 7
        y.to("cpu", non_blocking=True)  # 7 .. 8
        torch.cuda.synchronize()
    assert gpu.timeline(width=16) == "\n".join(
        [
            "                                0             8 s",
            "host: pin_memory()             |00000000        |",
            "side stream 1: copies          |        00      |",
            "default stream: kernels        |          0000  |",
            "default stream: copies to host |              00|",
        ]
    )


def test_a_kernels_result_is_written_on_its_stream_and_lands_on_the_host_at_the_end():
    with simulated_cuda(copy_s=1.0, compute_s=2.0, launch_s=0.0) as gpu:
        side = torch.cuda.Stream()
        (b,) = named_batches(gpu, 2)[1:]
        y = gpu.kernel(lambda t: t * 3)(b.to(gpu.device, non_blocking=True))  # 1 .. 3
        with torch.cuda.stream(side):
            early = y.cpu()  # the side stream does not wait for the compute: 0 .. 3
            out = y.to("cpu", non_blocking=True)  # not read inside the block
    assert torch.equal(early, torch.zeros(2, 2))  # the kernel had not written y yet
    assert [h.kind for h in gpu.hazards] == ["read", "read"]
    assert "to host 1 on side stream 1 may read batch 1's memory" in str(gpu.hazards[0])
    assert torch.equal(out, torch.full((2, 2), 3.0))  # leaving the block: every copy lands


# ---------------------------------------------------------------------------------------------
# Every spelling of a copy that a learner may write is queued as CUDA would run it


def _h2d(spell):
    return lambda gpu, x: spell(gpu, x)


def _d2h(spell):
    return lambda gpu, x: spell(gpu, x.to(gpu.device, non_blocking=True))


COPY_SPELLINGS = {  # spelling: (what it does, its copies' non_blocking flags, the host's waits)
    "to(device, non_blocking=True)": (_h2d(lambda g, x: x.to(g.device, non_blocking=True)), [True], []),
    "to(device, dtype, True)": (_h2d(lambda g, x: x.to(g.device, torch.float64, True)), [True], []),
    "to(device, dtype)": (_h2d(lambda g, x: x.to(g.device, torch.float64)), [False], ["a copy without non_blocking=True"]),
    "to(device=, copy=True)": (_h2d(lambda g, x: x.to(device=g.device, non_blocking=True, copy=True)), [True], []),
    "to(device tensor, True)": (_h2d(lambda g, x: x.to(torch.zeros(1, device=g.device), True)), [True], []),
    "cuda()": (_h2d(lambda g, x: x.cuda()), [False], ["a copy without non_blocking=True"]),
    "cuda(non_blocking=True)": (_h2d(lambda g, x: x.cuda(non_blocking=True)), [True], []),
    "cuda(device, True)": (_h2d(lambda g, x: x.cuda(g.device, True)), [True], []),
    "cuda(device)": (_h2d(lambda g, x: x.cuda(g.device)), [False], ["a copy without non_blocking=True"]),
    "to(device, dtype=, non_blocking=True)": (_h2d(lambda g, x: x.to(g.device, dtype=torch.float64, non_blocking=True)), [True], []),
    "copy_(x, True)": (_h2d(lambda g, x: torch.empty(4, device=g.device).copy_(x, True)), [True], []),
    "copy_(x)": (_h2d(lambda g, x: torch.empty(4, device=g.device).copy_(x)), [False], ["a copy without non_blocking=True"]),
    "copy_(other=x, non_blocking=True)": (_h2d(lambda g, x: torch.empty(4, device=g.device).copy_(other=x, non_blocking=True)), [True], []),
    "cpu()": (_d2h(lambda g, y: y.cpu()), [True, False], [".cpu()"]),
    "to('cpu', non_blocking=True)": (_d2h(lambda g, y: y.to("cpu", non_blocking=True)), [True, True], []),
    "to('cpu', dtype, True)": (_d2h(lambda g, y: y.to("cpu", torch.float64, True)), [True, True], []),
    "to(device='cpu', copy=True)": (_d2h(lambda g, y: y.to(device="cpu", copy=True)), [True, False], [".to('cpu')"]),
    "to('cpu', dtype=)": (_d2h(lambda g, y: y.to("cpu", dtype=torch.float64)), [True, False], [".to('cpu')"]),
    "pinned.copy_(y, True)": (_d2h(lambda g, y: torch.empty(4).pin_memory().copy_(y, True)), [True, True], []),
    "pinned.copy_(y)": (_d2h(lambda g, y: torch.empty(4).pin_memory().copy_(y)), [True, False], ["copy_ of a device value"]),
    "pinned.copy_(other=y, non_blocking=True)": (_d2h(lambda g, y: torch.empty(4).pin_memory().copy_(other=y, non_blocking=True)), [True, True], []),
    "pageable.copy_(y, True)": (_d2h(lambda g, y: torch.empty(4).copy_(y, True)), [True, True], ["copy_ of a device value"]),
    # a tensor made on the device from host data: a copy that never asks non_blocking
    "torch.as_tensor(x, device=)": (_h2d(lambda g, x: torch.as_tensor(x, device=g.device)), [False], ["a copy without non_blocking=True"]),
    "torch.as_tensor(x, dtype=, device=)": (_h2d(lambda g, x: torch.as_tensor(x, dtype=torch.float64, device=g.device)), [False], ["a copy without non_blocking=True"]),
    "torch.asarray(x, device=)": (_h2d(lambda g, x: torch.asarray(x, device=g.device)), [False], ["a copy without non_blocking=True"]),
    "torch.as_tensor(device tensor, device=)": (_h2d(lambda g, x: torch.as_tensor(x.to(g.device, non_blocking=True), device=g.device)), [True], []),
}  # fmt: skip


@pytest.mark.parametrize("spelling", list(COPY_SPELLINGS))
def test_every_spelling_of_a_copy_is_queued_as_cuda_would_run_it(spelling):
    spell, non_blocking, waits = COPY_SPELLINGS[spelling]
    with simulated_cuda(copy_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        x = gpu.name_batch(torch.arange(4.0), 3, pinned=True)
        out = spell(gpu, x)
        torch.cuda.synchronize()  # before reading what landed
        waited = [why for why, _ in gpu.host_waits][:-1]
        copies = [op for op in gpu.ops if op.kind == "copy"]
        on_device, dtype = out.is_cuda, out.dtype
        assert torch.equal(out.cpu().double(), torch.arange(4.0).double())
    assert [op.flags["non_blocking"] for op in copies] == non_blocking
    directions = ["h2d", "d2h"][: len(copies)]
    assert [op.flags["direction"] for op in copies] == directions
    assert [op.batch for op in copies] == [3] * len(copies)  # the batch follows its data
    assert [op.label for op in copies] == ["copy 3", "to host 3"][: len(copies)]
    assert len(waited) == len(waits)
    assert all(w.startswith(p) for w, p in zip(waited, waits, strict=True))
    assert on_device == (directions[-1] == "h2d") and not gpu.hazards
    assert dtype == (torch.float64 if "dtype" in spelling else torch.float32)
    # a copy to the host lands in pinned memory where non_blocking or a pinned tensor asks
    pinned_in = "pinned." in spelling or (spelling.startswith("to('cpu'") and non_blocking[-1])
    assert [op.flags["pinned"] for op in copies][1:] == [pinned_in][: len(copies) - 1]


def test_tensors_made_pinned_are_pinned_and_a_copy_from_them_needs_no_wait():
    with simulated_cuda(copy_s=1.0, launch_s=0.0) as gpu:
        made = [torch.empty(4, pin_memory=True), torch.zeros(4, pin_memory=True)]
        assert [t.is_pinned() for t in made] == [True, True]
        wide = torch.zeros(size=(4,), dtype=torch.float64, pin_memory=True)  # keywords only
        assert wide.is_pinned() and wide.dtype == torch.float64
        assert torch.zeros(size=(2,), device=gpu.device).is_cuda
        assert not torch.zeros(4).is_pinned()
        made[1].to(gpu.device, non_blocking=True)
        assert gpu.host_waits == [] and gpu.host_time == 0.0
    assert gpu.ops[0].flags["pinned"] and gpu.ops[0].label == "copy"  # no batch: unnamed
    # each noted on the host, as page-locked memory allocated there, of no time
    assert [tuple(iv) for iv in gpu.host_work] == [
        (f"host: torch.{name}(..., pin_memory=True)", ".", 0.0, 0.0)
        for name in ("empty", "zeros", "zeros")
    ]


def test_record_stream_by_keyword_counts_as_by_position():
    for by_keyword in (False, True):
        with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0) as gpu:
            side, main = torch.cuda.Stream(), torch.cuda.current_stream()
            (b,) = named_batches(gpu, 1)
            with torch.cuda.stream(side):
                x = b.to(gpu.device, non_blocking=True)
            main.wait_stream(side)
            x.record_stream(s=main) if by_keyword else x.record_stream(main)
            gpu.kernel(lambda t: t + 1)(x)
            del x  # recorded on the compute stream: its memory waits for the compute
        assert not gpu.hazards, (by_keyword, [str(h) for h in gpu.hazards])


def test_overwriting_a_pinned_staging_buffer_before_its_copy_ran_is_a_hazard():
    def run(wait):
        with simulated_cuda(copy_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
            staging, side = torch.empty(2, 2).pin_memory(), torch.cuda.Stream()
            for b in named_batches(gpu, 2):
                assert staging.copy_(b) is staging  # the host fills it: no wait of its own
                with torch.cuda.stream(side):
                    staging.to(gpu.device, non_blocking=True)
                    copied = side.record_event()
                if wait:
                    copied.synchronize()  # the copy engine has read the buffer
        return gpu

    gpu = run(wait=False)
    assert [h.kind for h in gpu.hazards] == ["overwrite"]
    assert gpu.hazards[0].first is gpu.ops[0] and gpu.hazards[0].second is None
    assert gpu.hazards[0].batch == 0  # the batch whose copy may read the new values
    assert str(gpu.hazards[0]) == (
        "the host overwrote pinned memory that copy 0 on side stream 1 may still read"
    )
    assert not run(wait=True).hazards


def test_simulated_streams_and_events_refuse_what_cuda_refuses():
    with simulated_cuda(copy_s=2.0, launch_s=0.0) as gpu:
        side, event = torch.cuda.Stream(), torch.cuda.Event(enable_timing=True)
        assert event.query()  # never recorded: nothing to wait for, as CUDA says
        unrecorded = torch.cuda.Event(enable_timing=True)
        for call, named in [
            (lambda: side.wait_event("an event"), "wait_event expects a torch.cuda.Event, got str"),
            (
                lambda: side.wait_stream("a stream"),
                "wait_stream expects a torch.cuda.Stream, got str",
            ),
            (lambda: event.record("a stream"), "record expects a torch.cuda.Stream, got str"),
            (lambda: unrecorded.elapsed_time(unrecorded), "both events must be recorded before"),
        ]:
            with pytest.raises((TypeError, RuntimeError), match=f"^{re.escape(named)}"):
                call()
        event.record()
        assert gpu.ops[-1].kind == "event" and gpu.ops[-1].label == "event"
        for end in (unrecorded, torch.cuda.Event()):  # one end unrecorded, or not timing
            with pytest.raises(
                RuntimeError,
                match=r"^both events (must be recorded|need torch\.cuda\.Event\(enable_timing=True\))",
            ):
                event.elapsed_time(end)
        assert side.record_event(unrecorded) is unrecorded  # the event given is the one recorded
        assert (
            repr(event) == "<simulated CUDA event>"
            and repr(side) == "<simulated CUDA stream: side stream 1>"
        )
        assert side == side and side != gpu.default and len({side, side, gpu.default}) == 2
    with pytest.raises(
        RuntimeError, match=r"^a simulated stream or event is used outside simulated_cuda\(\)$"
    ):
        event.record()


def test_a_wait_on_an_earlier_event_keeps_a_later_wait_and_an_event_waits_on_the_stream_given():
    with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0) as gpu:
        side, main = torch.cuda.Stream(), torch.cuda.current_stream()
        (b,) = named_batches(gpu, 1)
        with torch.cuda.stream(side):
            before = side.record_event()
            x = b.to(gpu.device, non_blocking=True)  # 0 .. 1
            after = side.record_event()
        main.wait_event(after)
        main.wait_event(before)  # an older point of the same stream: the later wait stands
        x.record_stream(main)
        gpu.kernel(lambda t: t + 1)(x)  # 1 .. 2
        other = torch.cuda.Stream()
        after.wait(other)  # the stream given waits, not the current one
        with torch.cuda.stream(other):
            gpu.kernel(lambda t: t * 2, "late")(x)  # after the copy and the SMs: 2 .. 3
        after.synchronize()  # the host reaches the event's time exactly
        assert gpu.host_time == after.time and after.query()
    assert [op.start for op in gpu.ops if op.kind == "kernel"] == [1.0, 2.0]
    assert not gpu.hazards


def test_an_event_waited_on_by_a_stream_orders_the_work_after_it():
    with simulated_cuda(copy_s=2.0, compute_s=1.0, launch_s=0.0) as gpu:
        side, main = torch.cuda.Stream(), torch.cuda.current_stream()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        (b,) = named_batches(gpu, 1)
        with torch.cuda.stream(side):
            start.record(side)
            x = b.to(gpu.device, non_blocking=True)  # 0 .. 2
            end.record(side)
        end.wait()  # the current stream waits for the event: its compute starts at 2
        x.record_stream(main)
        gpu.kernel(lambda t: t + 1)(x)  # 2 .. 3
        end.synchronize()  # the host waits until 2: both events have completed
        assert start.elapsed_time(end) == pytest.approx(2000.0)
        assert end.elapsed_time(start) == pytest.approx(-2000.0)
        assert [(op.start, op.end) for op in gpu.ops if op.kind != "event"] == [
            (0.0, 2.0),
            (2.0, 3.0),
        ]
        assert main.record_event().time == 3.0
    assert not gpu.hazards


def test_a_copy_into_a_buffer_that_a_compute_may_still_read_is_an_overwrite():
    with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0) as gpu:
        side, buf = torch.cuda.Stream(), torch.empty(2, 2, device=gpu.device)
        side.wait_stream(torch.cuda.current_stream())
        for b in named_batches(gpu, 2):
            with torch.cuda.stream(side):  # no wait for the compute that reads buf
                buf.copy_(b, non_blocking=True)
                copied = side.record_event()
            torch.cuda.current_stream().wait_event(copied)
            gpu.kernel(lambda t: t.clone())(buf)
    assert [h.kind for h in gpu.hazards] == ["overwrite"]
    assert str(gpu.hazards[0]) == (
        "copy 1 on side stream 1 may overwrite batch 1's memory before compute 0 on default "
        "stream has finished"
    )


def test_a_kernel_takes_keywords_may_return_several_tensors_and_unnamed_work_shows_as_dots():
    with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        x = torch.ones(2).pin_memory().to(gpu.device, non_blocking=True)  # no batch: "."
        torch.cuda.Event().record()  # an event takes no time and draws nothing
        scaled, shifted = gpu.kernel(lambda t, scale: (t * scale, t + scale))(x, scale=3.0)
        assert scaled.is_cuda and shifted.is_cuda
        doubled = gpu.kernel(lambda t: t * 2)(shifted)  # after the kernel that wrote it
        on_host = doubled.cpu()
    assert gpu.ops[-1].label == "to host" and not gpu.ops[-1].flags["pinned"]
    assert torch.equal(on_host, torch.full((2,), 8.0)) and not gpu.hazards
    assert [(iv.lane, iv.label, iv.start) for iv in gpu.intervals()] == [
        ("default stream: copies", ".", 0.0),
        ("default stream: kernels", ".", 1.0),
        ("default stream: kernels", ".", 2.0),
        ("default stream: copies to host", ".", 3.0),
    ]


def test_a_copy_between_device_tensors_is_a_kernel_on_the_current_stream():
    with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        (b,) = named_batches(gpu, 1)
        x = b.to(gpu.device, non_blocking=True)  # 0 .. 1 on the default stream
        kept = torch.empty(2, 2, device=gpu.device)
        assert kept.copy_(x) is kept  # after the copy in, on the same stream: no race
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            early = torch.empty(2, 2, device=gpu.device)
            early.copy_(x)  # the side stream does not wait for the copy in: a race
        on_host = x.cpu()
    assert [(op.kind, op.label, op.stream.name) for op in gpu.ops[1:3]] == [
        ("kernel", "copy_", "default stream"),
        ("kernel", "copy_", "side stream 1"),
    ]
    assert gpu.ops[1].start == 1.0 and gpu.ops[2].start == 0.0
    assert torch.equal(kept, b) and [h.kind for h in gpu.hazards] == ["read"]
    assert gpu.host_waits[0][0] == ".cpu()" and gpu.ops[-1].label == "to host 0"
    assert torch.equal(on_host, b)


def test_views_share_memory_in_place_ops_write_it_and_new_host_tensors_are_pageable():
    with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        b = gpu.name_batch(torch.arange(4.0).reshape(2, 2), 5, pinned=True)
        row, doubled = b[0], b * 2  # a view of the pinned batch; a new, pageable tensor
        assert row.is_pinned() and not doubled.is_pinned()
        assert gpu.batch_of(row) == gpu.batch_of(doubled) == 5
        row.to(gpu.device, non_blocking=True)
        doubled.to(gpu.device, non_blocking=True)  # from pageable memory: the host waits
        assert [why for why, _ in gpu.host_waits] == ["a copy from pageable memory"]
        x = b.to(gpu.device, non_blocking=True)
        flat = x.view(4)  # the same memory: no kernel
        x.mul_(2)  # a kernel that writes x's memory, on the default stream
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            flat + 1  # reads that memory without waiting for the default stream
    assert [(op.kind, op.label, op.stream.name) for op in gpu.ops[3:]] == [
        ("kernel", "mul_", "default stream"),
        ("kernel", "add", "side stream 1"),
    ]
    assert [str(h) for h in gpu.hazards] == [
        "add on side stream 1 may read batch 5's memory before mul_ on default stream has finished"
    ]


def test_a_batch_keeps_its_number_on_the_device_and_its_pinning_when_named():
    with simulated_cuda(copy_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        pinned = gpu.name_batch(torch.zeros(2).pin_memory(), 1)  # pinned: stays so, unsaid
        pageable = gpu.name_batch(torch.zeros(2), 2)
        assert pinned.is_pinned() and not pageable.is_pinned()
        on_device = pinned.to(gpu.device, non_blocking=True)
        assert gpu.batch_of(on_device) == 1 and gpu.batch_of(pageable) == 2
        assert gpu.batch_of(torch.zeros(2)) is None


def test_device_memory_is_freed_when_its_last_view_goes():
    with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0) as gpu:
        side = torch.cuda.Stream()
        (b,) = named_batches(gpu, 1)
        with torch.cuda.stream(side):
            x = b.to(gpu.device, non_blocking=True)  # made on the side stream
        torch.cuda.current_stream().wait_stream(side)
        flat = x.view(4)
        gpu.kernel(lambda t: t + 1)(flat)  # the default stream reads that memory
        del x  # a view still holds the memory: nothing is freed
        after_the_tensor = [h.kind for h in gpu.hazards]
        del flat  # the last reference: freed while the compute may still read it
    assert after_the_tensor == [] and [h.kind for h in gpu.hazards] == ["freed"]


def test_a_dtype_change_stays_where_the_tensor_is():
    with simulated_cuda(copy_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        on_host = torch.ones(2).to(torch.float64)  # no copy: the host converts
        x = torch.ones(2).pin_memory().to(gpu.device, non_blocking=True)
        wide = x.to(torch.float64)  # a kernel on the device, no copy back
        same = x.to(gpu.device)  # already there: nothing queued
        assert not on_host.is_cuda and wide.is_cuda and same.is_cuda
        assert on_host.dtype == wide.dtype == torch.float64
    assert [(op.kind, op.label) for op in gpu.ops] == [("copy", "copy"), ("kernel", "to")]
    assert gpu.host_waits == [] and not gpu.hazards


def test_a_hazard_on_a_buffer_of_no_batch_is_named_by_its_writer():
    from types import SimpleNamespace

    from d2lgpu.stream_sim import Hazard

    def op(label, stream):
        return SimpleNamespace(label=label, stream=SimpleNamespace(name=stream))

    staging, compute = op("copy to staging", "copies"), op("compute", "main")
    for kind in ("read", "overwrite", "freed"):
        text = str(Hazard(kind, None, staging, None if kind == "freed" else compute))
        assert "None" not in text and "copy to staging's" in text, text
    assert "batch 3's memory" in str(Hazard("read", 3, staging, compute))


def test_a_host_tensor_sent_to_the_host_stays_put_and_nothing_is_queued():
    with simulated_cuda(copy_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        x = torch.arange(3.0)
        same = [x.cpu(), x.to("cpu"), x.to(device="cpu"), x.to("cpu", non_blocking=True)]
    assert all(t is x for t in same)  # as in PyTorch: already there, the same tensor
    assert gpu.ops == [] and gpu.host_waits == [] and not gpu.hazards


def test_two_streams_that_only_read_a_buffer_make_no_hazard():
    with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        a, b = named_batches(gpu, 2)
        x, y = a.to(gpu.device, non_blocking=True), b.to(gpu.device, non_blocking=True)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        total = x + y  # reads x and y on the default stream...
        with torch.cuda.stream(side):
            product = torch.mul(x, y)  # ...and on the side stream, at the same time
        torch.cuda.synchronize()
        assert torch.equal(total.cpu(), a + b) and torch.equal(product.cpu(), a * b)
    kernels = [(op.label, op.stream.name) for op in gpu.ops if op.kind == "kernel"]
    assert kernels == [("add", "default stream"), ("mul", "side stream 1")]
    assert not gpu.hazards


DEVICE_FACTORIES = {
    "empty": lambda like: torch.empty(4, device="cuda"),
    "randn": lambda like: torch.randn(4, device="cuda"),
    "rand": lambda like: torch.rand(4, device="cuda"),
    "arange": lambda like: torch.arange(4.0, device="cuda"),
    "tensor": lambda like: torch.tensor([1.0, 2.0, 3.0, 4.0], device="cuda"),
    "full": lambda like: torch.full((4,), 2.0, device="cuda"),
    "ones_like": lambda like: torch.ones_like(like),
    "zeros_like": lambda like: torch.zeros_like(like),
    "new_ones": lambda like: like.new_ones(4),
}


@pytest.mark.parametrize("factory", list(DEVICE_FACTORIES))
def test_device_memory_from_any_factory_is_followed_like_a_copy(factory):
    # made on a side stream, read by a compute on the default stream, freed without
    # record_stream: the memory may be reused while the compute still reads it
    with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0) as gpu:
        like = torch.zeros(4, device="cuda")  # on the default stream, before the side stream
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            x = DEVICE_FACTORIES[factory](like)
        queued = len(gpu.ops)
        torch.cuda.current_stream().wait_stream(side)
        gpu.kernel(lambda t: t + 1)(x)
        del x
    assert queued == 0  # a factory queues no kernel, and reads nothing of `like`
    assert [h.kind for h in gpu.hazards] == ["freed"]


def test_work_outside_the_simulated_kernels_takes_no_time():
    with simulated_cuda(copy_s=1.0, compute_s=1.0, launch_s=0.0) as gpu:
        x = torch.zeros(4, device="cuda")
        x.mul_(2)
        x + 1
        gpu.kernel(lambda t: t * 3)(x)
    assert [(op.label, op.end - op.start) for op in gpu.ops] == [
        ("mul_", 0.0),
        ("add", 0.0),
        ("compute", 1.0),
    ]


def test_a_view_of_a_pinned_staging_buffer_is_pinned_and_a_new_tensor_from_it_is_not():
    with simulated_cuda(copy_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        staging = torch.empty(3, 4).pin_memory()  # pinned, never named as a batch
        row, scaled = staging[1], staging * 2
        assert row.is_pinned() and not scaled.is_pinned()
        row.to(gpu.device, non_blocking=True)  # pinned: the host goes on at once
        scaled.to(gpu.device, non_blocking=True)  # pageable: the host waits
    assert [why for why, _ in gpu.host_waits] == ["a copy from pageable memory"]


def test_a_second_copy_into_a_landing_buffer_or_its_shape_is_not_a_read_of_it():
    # two copies to the host into one pinned buffer, queued on one stream: the second waits
    # for the first on the stream, and writing the buffer is not the host reading it early
    with simulated_cuda(copy_s=1.0, launch_s=0.0, pin_gb_s=FREE_PINNING) as gpu:
        a, b = named_batches(gpu, 2)
        ya, yb = a.to(gpu.device, non_blocking=True), b.to(gpu.device, non_blocking=True)
        out = torch.empty(2, 2).pin_memory()
        out.copy_(ya, non_blocking=True)
        out.copy_(yb, non_blocking=True)  # while the first copy is still landing
        assert out.size() == (2, 2) and out.dim() == 2  # its shape is no read of its data
        torch.cuda.synchronize()
        assert torch.equal(out, b)
    assert not gpu.hazards and [why for why, _ in gpu.host_waits] == ["torch.cuda.synchronize()"]


@pytest.mark.parametrize("side_waits", [False, True])
def test_memory_allocated_on_one_stream_and_used_on_another_must_follow_that_streams_work(
    side_waits,
):
    # The caching allocator hands a stream memory free in that stream's order: work queued
    # there before the allocation may still use it, so another stream must wait for that work.
    with simulated_cuda() as gpu:
        side, earlier = torch.cuda.Stream(), gpu.kernel(lambda t: None, label="earlier")
        earlier(torch.zeros(2, device=gpu.device))  # its memory freed, its kernel queued
        buf = torch.empty(2, 2, device=gpu.device)  # on the default stream, after "earlier"
        if side_waits:
            side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            buf.copy_(named_batches(gpu, 1)[0], non_blocking=True)
        torch.cuda.current_stream().wait_stream(side)
        gpu.kernel(lambda t: t + 1)(buf)
        first = gpu.hazards[0] if gpu.hazards else None
    if side_waits:
        assert first is None
        return
    assert (first.kind, first.batch, first.made_on) == ("allocated", 0, "default stream")
    assert first.first.label == "earlier" and first.second.label == "copy 0"
    assert str(first) == (
        "batch 0's device memory was allocated on default stream while earlier on default "
        "stream may still run there, and copy 0 on side stream 1 does not wait for that work, "
        "whose memory the allocator may have handed out"
    )


def test_each_wait_is_recorded_with_its_stream_the_events_stream_and_when():
    with simulated_cuda() as gpu:
        side, main = torch.cuda.Stream(), torch.cuda.current_stream()
        never = torch.cuda.Event()
        with torch.cuda.stream(side):
            torch.ones(2).pin_memory().to(gpu.device, non_blocking=True)
            copied = side.record_event()
        main.wait_event(copied)
        side.wait_stream(main)
        copied.wait()  # the current stream: the default one here
        main.wait_event(never)
    waits = [(w.stream.name, w.on and w.on.name, w.at) for w in gpu.waits]
    assert waits == [
        ("default stream", "side stream 1", 2),  # after the copy and the event
        ("side stream 1", "default stream", 3),  # wait_stream records an event on main first
        ("default stream", "side stream 1", 3),
        ("default stream", None, 3),  # an event never recorded: it covers nothing
    ]
    assert gpu.waits[0].covers == {"side stream 1": 1} and gpu.waits[3].covers == {}


def test_a_freed_buffer_names_the_streams_given_to_record_stream():
    with simulated_cuda() as gpu:
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            x = named_batches(gpu, 1)[0].to(gpu.device, non_blocking=True)
            x.record_stream(side)  # the stream that made it, not the one that uses it
        torch.cuda.current_stream().wait_stream(side)
        gpu.kernel(lambda t: t * 2)(x)
        del x
    (hazard,) = gpu.hazards
    assert (hazard.kind, hazard.made_on, hazard.recorded) == (
        "freed",
        "side stream 1",
        ("side stream 1",),
    )


def test_polling_query_in_a_loop_ends_and_is_a_host_wait():
    # Each False costs the host a poll, so the loop ends when the copy lands; polling until
    # True is a wait (named at once, not a run into the checker's time limit).
    with simulated_cuda(copy_s=1e-3, launch_s=1e-5) as gpu:
        x = torch.ones(2).pin_memory().to(gpu.device, non_blocking=True)
        done = torch.cuda.current_stream().record_event()
        polls = 0
        while not done.query():
            polls += 1
        gpu.kernel(lambda t: t)(x)
    assert 50 < polls < 200  # about 1 ms of 10 us polls
    assert [why for why, _ in gpu.host_waits] == ["event.query() polled until it returned True"]
    assert gpu.host_time == pytest.approx(1e-3, abs=5e-5) and not gpu.hazards


def test_elapsed_time_before_both_events_completed_raises_as_on_a_gpu():
    # c10/cuda/CUDAEvent.h: "Both events must be completed before calculating elapsed time"
    with simulated_cuda(copy_s=2.0, launch_s=0.0) as gpu:
        side = torch.cuda.Stream()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        (b,) = named_batches(gpu, 1)
        with torch.cuda.stream(side):
            start.record()
            b.to(gpu.device, non_blocking=True)  # 0 .. 2
            end.record()
        assert start.time == 0.0 and not gpu.host_waits
        with pytest.raises(RuntimeError, match=r"^Both events must be completed .*elapsed_time"):
            start.elapsed_time(end)
        assert start.elapsed_time(start) == 0.0  # done at 0: the host is at 0
        assert not gpu.host_waits  # elapsed_time itself never waits
        gpu.host_time = 1.999  # the host went on, but the copy is not done yet
        with pytest.raises(RuntimeError, match="cudaErrorNotReady"):
            end.elapsed_time(start)
        gpu.host_time = 2.0  # the GPU reached the end event: query() would say True
        assert start.elapsed_time(end) == pytest.approx(2000.0) and not gpu.host_waits
        assert gpu.after(gpu.ops[-1], gpu.host_follows)  # the host knows both are done


def test_the_pieces_of_a_split_device_tensor_are_views_of_its_device_memory():
    with simulated_cuda(launch_s=0.0) as gpu:
        (b,) = named_batches(gpu, 1)
        x = b.to(gpu.device, non_blocking=True)
        for parts in (torch.split(x, 1), x.chunk(2), x.unbind(0), torch.tensor_split(x, 2)):
            assert all(gpu.buffer(p) is gpu.buffer(x) for p in parts), parts
        gpu.kernel(lambda t: t * 2)(torch.split(x, 1)[1])
        assert gpu.ops[-1].flags["on_device"] and gpu.ops[-1].batch == 0
        host_parts = torch.split(b, 1)  # pieces of a host tensor stay on the host
        assert all(gpu.buffer(p) is None for p in host_parts)
    assert not gpu.hazards


def test_a_stream_kept_from_an_earlier_run_is_named_when_used():
    # An answer that caches its streams between calls (a global, a default argument) gets
    # the earlier run's streams in the next: named, not a failure inside the simulator.
    with simulated_cuda():
        kept = torch.cuda.Stream()
        event = kept.record_event()
    uses = [
        lambda: kept.wait_event(event),
        lambda: kept.record_event(),
        lambda: kept.synchronize(),
        lambda: kept.query(),
        lambda: torch.cuda.stream(kept).__enter__(),
    ]
    for use in uses:
        with simulated_cuda(), pytest.raises(RuntimeError) as raised:
            use()
        assert str(raised.value) == (
            "side stream 1 was made in an earlier run, and kept between calls (a global, a "
            "default argument, a cache): get the streams in each call. "
            "torch.cuda.current_stream() is the caller's stream at the time of that call, and "
            "a torch.cuda.Stream() made then is this call's own"
        )
    with simulated_cuda():  # this run's own streams work as before
        mine = torch.cuda.Stream()
        mine.wait_event(mine.record_event())
        with torch.cuda.stream(mine):
            assert mine.query()
