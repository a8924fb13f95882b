"""The real-GPU part of ``08.overlap``: the answer runs on this machine's GPU, for real.

With 8 batches of 32 MiB, pinned beforehand as ``DataLoader(pin_memory=True)``
hands them over (as in the simulated check: pinning costs the answer nothing in
either), and a compute sized, on this GPU, to take about as long as one batch's
copy (where overlap gains most, up to 2x):

* the results equal a serial loop's (copy, compute, copy, ... on one stream);
* the answer is faster than that loop by a margin (``d2lgpu.benchmark``:
  warmed up, synchronized, median of several runs; measured again once before
  failing, as a busy machine can slow one run);
* in a ``torch.profiler`` trace of one call, host-to-device copies and kernels
  run at the same time on different streams.

What it is not: a benchmark of the GPU; the numbers go into hints only, never
into the list of checks that passed.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import warnings

import torch

from ..streams import overlap_s, trace_intervals
from ..timing import benchmark
from ._util import CheckFailed

__all__ = ["check_on_gpu", "pipeline_work", "serial_loop", "calibrated_product", "memcpy_work"]

N_BATCHES, ROWS, COLS = 8, 8192, 1024  # 32 MiB of float32 per batch
MAX_RATIO = 0.85  # at most this share of the serial loop's time; ideally (n + 1) / 2n


def serial_loop(batches, compute, device):
    """The baseline: each batch copied, then computed, on the current stream."""
    return [compute(b.to(device, non_blocking=True)) for b in batches]


def _event_ms(fn, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()  # a sync point: wait for the work between the two events
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def calibrated_product(batch: torch.Tensor, device, gen: torch.Generator):
    """``(w, reps)``: a matrix ``w`` (drawn from ``gen``) on ``device`` and how many
    products ``x @ w`` in a row take about as long, here, as copying ``batch`` there.
    Also ``_copy_back_gpu``'s."""
    w = torch.randn(COLS, COLS, generator=gen).div_(COLS**0.5).to(device)
    x = batch.to(device)
    x @ w  # warm-up: cuBLAS handle and kernel choice
    torch.cuda.synchronize()
    copy_ms = _event_ms(lambda: batch.to(device, non_blocking=True))
    product_ms = _event_ms(lambda: x @ w)
    return w, max(1, min(64, round(copy_ms / max(product_ms, 1e-6))))


def _workload(device):
    """Pinned host batches (pinned here, before any timing), and a compute that takes
    about one copy's time here."""
    gen = torch.Generator().manual_seed(8)
    host = [torch.randn(ROWS, COLS, generator=gen).pin_memory() for _ in range(N_BATCHES)]
    w, reps = calibrated_product(host[0], device, gen)

    def compute(x):
        for _ in range(reps):
            x = x @ w
        return x.sum(dim=1)

    return host, compute


def _check_results(answer, host, compute, device) -> None:
    torch.cuda.synchronize()
    got = answer(host, compute, device)
    want = serial_loop(host, compute, device)
    torch.cuda.synchronize()
    if not isinstance(got, list | tuple) or len(got) != len(want):
        raise CheckFailed(f"on this GPU, pipelined did not return {len(want)} results in a list")
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        # a result read back to the host (r.cpu() after the loop) is compared where it is
        same = isinstance(g, torch.Tensor) and g.shape == w.shape
        if not same or not torch.allclose(
            g.detach().to(w.device, w.dtype), w, rtol=1e-3, atol=1e-2
        ):
            raise CheckFailed(
                f"on this GPU, result {i} differs from compute(batch {i}) of a serial loop: a "
                "compute may have read its batch before the copy finished, or after its memory "
                "was reused (wait for the copy on the GPU; record_stream)"
            )


def _check_speed(answer, host, compute, device) -> None:
    ratio = 1.0
    for _ in range(2):  # once more before failing: a busy machine can slow one measurement
        serial = benchmark(serial_loop, host, compute, device, device=device, repeat=5)
        mine = benchmark(answer, host, compute, device, device=device, repeat=5)
        ratio = mine.median / serial.median
        if ratio <= MAX_RATIO:
            return
    raise CheckFailed(
        f"on this GPU your pipeline took {mine.median * 1e3:.2f} ms for {len(host)} batches, "
        f"the serial loop {serial.median * 1e3:.2f} ms ({ratio:.2f}x; with copies and computes "
        f"of equal length, overlap gives about {(len(host) + 1) / (2 * len(host)):.2f}x): "
        "look for a wait in the loop, or copies that end up on the compute stream"
    )


def pipeline_work(trace: dict) -> tuple[list, list]:
    """The copies to the device and the kernels in a Chrome trace: the pipeline's work.

    Copies back to the host (``Memcpy DtoH``, results read after the loop, which an H200
    run showed as 9 ms of copies that no kernel overlapped) and copies within the device
    are not the pipeline's reads, and do not count against its overlap."""
    return memcpy_work(trace, "HtoD")


def memcpy_work(trace: dict, direction: str) -> tuple[list, list]:
    """The copies in ``direction`` (``"HtoD"``, ``"DtoH"``) and the kernels in a Chrome
    trace, other copies left out. Also ``_copy_back_gpu``'s."""
    events = [
        e
        for e in trace["traceEvents"]
        if not (isinstance(e, dict) and e.get("cat") == "gpu_memcpy")
        or direction in str(e.get("name", ""))
    ]
    intervals = trace_intervals({**trace, "traceEvents": events})
    return (
        [iv for iv in intervals if iv.label == "copy"],
        [iv for iv in intervals if iv.label == "kernel"],
    )


def profiled_trace(run) -> dict:
    """The Chrome trace (as loaded JSON) of ``run()`` under torch.profiler, CPU and CUDA,
    the GPU synchronized before and after. Also ``_copy_back_gpu``'s."""
    from torch.profiler import ProfilerActivity, profile

    os.environ.setdefault("KINETO_LOG_LEVEL", "6")
    torch.cuda.synchronize()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Warning: Profiler clears events")
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            run()
            torch.cuda.synchronize()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            return json.load(f)


def _check_trace(answer, host, compute, device) -> None:
    copies, kernels = pipeline_work(profiled_trace(lambda: answer(host, compute, device)))
    if not copies or not kernels:
        raise CheckFailed("on this GPU the profiler trace shows no copies or no kernels")
    copy_s = sum(iv.end - iv.start for iv in copies)
    both = overlap_s(copies, kernels)
    if both < 0.3 * copy_s:
        lanes = sorted({iv.lane for iv in copies} | {iv.lane for iv in kernels})
        raise CheckFailed(
            f"in a torch.profiler trace of your function on this GPU, copies and kernels ran "
            f"at the same time for {both * 1e3:.2f} ms of the {copy_s * 1e3:.2f} ms of copies "
            f"(streams seen: {', '.join(lanes)}): the copies should run while kernels run"
        )


def check_on_gpu(answer, passed) -> None:
    """Run ``answer`` on this machine's GPU: results, speed against a serial loop, a trace."""
    device = torch.device("cuda", torch.cuda.current_device())
    host, compute = _workload(device)
    _check_results(answer, host, compute, device)
    _check_speed(answer, host, compute, device)
    _check_trace(answer, host, compute, device)
    passed.append(
        "on this GPU: the same results as a serial loop, clearly faster than it, and a "
        "profiler trace with copies and kernels running at the same time on two streams"
    )
