"""The real-GPU part of ``08.copy_back``: the answer runs on this machine's GPU, for real.

With 8 batches of 32 MiB, pinned beforehand (as ``DataLoader(pin_memory=True)`` hands them
over), two pinned buffers of one result each, and a compute sized, on this GPU, to take
about as long as one batch's copy and to return a result as large as its batch (so that
a copy back takes about as long as a copy in: three equal stages, where overlap gains
most, up to 3x):

* every result reaches ``consume``, in order, equal to a serial loop's (copy in, compute,
  blocking copy back, consume, on one stream);
* the answer is faster than that loop by a margin (``d2lgpu.benchmark``: warmed up,
  synchronized, median of several runs; measured again once before failing, as a busy
  machine can slow one run);
* in a ``torch.profiler`` trace of one call, copies to the host run while kernels run.

What it is not: a benchmark of the GPU; the numbers go into hints only, never into the
list of checks that passed. It has not yet run on a GPU: the course's tests run it
against fakes only (:func:`copy_back_work` on a hand-made trace, the result check with the
CPU standing in for the device, and a stand-in for :func:`check_on_gpu`), so its margin
(``MAX_RATIO``) is the arithmetic of three equal stages, not a measurement.
"""

from __future__ import annotations

import torch

from ..streams import overlap_s
from ..timing import benchmark
from ._stream_gpu import calibrated_product, memcpy_work, profiled_trace
from ._util import CheckFailed

__all__ = ["check_on_gpu", "copy_back_work", "serial_loop"]

N_BATCHES, ROWS, COLS = 8, 8192, 1024  # 32 MiB of float32 per batch, and per result
MAX_RATIO = 0.8  # at most this share of the serial loop's time; ideally (n + 2) / 3n


def serial_loop(batches, compute, device, buffers, consume):
    """The baseline: each batch copied in, computed, copied back (the host waits), consumed."""
    for i, b in enumerate(batches):
        buf = buffers[i % len(buffers)]
        buf.copy_(compute(b.to(device, non_blocking=True)))  # a sync point: blocking copy back
        consume(i, buf)


def _workload(device):
    """Pinned host batches and buffers (pinned here, before any timing), and a compute that
    takes about one copy's time here and returns a result the size of its batch."""
    gen = torch.Generator().manual_seed(88)
    host = [torch.randn(ROWS, COLS, generator=gen).pin_memory() for _ in range(N_BATCHES)]
    buffers = [torch.empty(ROWS, COLS).pin_memory() for _ in range(2)]
    w, reps = calibrated_product(host[0], device, gen)

    def compute(x):
        for _ in range(reps):
            x = x @ w
        return x

    return host, buffers, compute


def _collect():
    """A consume that keeps what the host read from each buffer, in order."""
    got: list[tuple[int, torch.Tensor]] = []

    def consume(i, buf):
        got.append((i, buf.clone()))  # the host reads the whole buffer

    return got, consume


def _glance(i, buf) -> None:
    """The timed runs' consume: the host reads one number of each result."""
    float(buf[0, 0])


def _check_results(answer, host, buffers, compute, device) -> None:
    torch.cuda.synchronize()
    got, consume = _collect()
    answer(host, compute, device, buffers, consume)
    want, reference = _collect()
    serial_loop(host, compute, device, [torch.empty_like(b) for b in buffers], reference)
    torch.cuda.synchronize()
    if [i for i, _ in got] != list(range(len(host))):
        raise CheckFailed(
            f"on this GPU, consume was called with the indices {[i for i, _ in got]}: once per "
            f"batch, in order, 0 to {len(host) - 1}"
        )
    for (i, g), (_, w) in zip(got, want, strict=True):
        if g.shape != w.shape or not torch.allclose(g, w, rtol=1e-3, atol=1e-2):
            raise CheckFailed(
                f"on this GPU, result {i} as consume read it differs from a serial loop's: its "
                "copy to the host may not have landed when consume read it (wait for an event "
                "recorded after the copy), or a buffer was copied into before its result was "
                "consumed, or a copy read a result its compute had not written (a missing "
                "wait on the GPU), or its memory was reused too early (record_stream)"
            )


def _check_speed(answer, host, buffers, compute, device) -> None:
    ratio, args = 1.0, (host, compute, device, buffers, _glance)
    for _ in range(2):  # once more before failing: a busy machine can slow one measurement
        serial = benchmark(serial_loop, *args, device=device, repeat=5)
        mine = benchmark(answer, *args, device=device, repeat=5)
        ratio = mine.median / serial.median
        if ratio <= MAX_RATIO:
            return
    n = len(host)
    raise CheckFailed(
        f"on this GPU your pipeline took {mine.median * 1e3:.2f} ms for {n} batches, the serial "
        f"loop {serial.median * 1e3:.2f} ms ({ratio:.2f}x; with three stages of equal length, "
        f"overlap gives about {(n + 2) / (3 * n):.2f}x): look for a host wait in the loop, or "
        "copies that end up on the compute stream"
    )


def copy_back_work(trace: dict) -> tuple[list, list]:
    """The copies to the host and the kernels in a Chrome trace.

    Copies to the device and within it are left out: what is judged here is whether the
    copies back ran beside kernels."""
    return memcpy_work(trace, "DtoH")


def _check_trace(answer, host, buffers, compute, device) -> None:
    trace = profiled_trace(lambda: answer(host, compute, device, buffers, _glance))
    back, kernels = copy_back_work(trace)
    if not back or not kernels:
        raise CheckFailed(
            "on this GPU the profiler trace shows no copies to the host or no kernels"
        )
    back_s = sum(iv.end - iv.start for iv in back)
    both = overlap_s(back, kernels)
    if both < 0.3 * back_s:
        lanes = sorted({iv.lane for iv in back} | {iv.lane for iv in kernels})
        raise CheckFailed(
            f"in a torch.profiler trace of your function on this GPU, copies to the host and "
            f"kernels ran at the same time for {both * 1e3:.2f} ms of the {back_s * 1e3:.2f} ms "
            f"of copies back (streams seen: {', '.join(lanes)}): the copies back should run "
            "while the next computes run"
        )


def check_on_gpu(answer, passed) -> None:
    """Run ``answer`` on this machine's GPU: results, speed against a serial loop, a trace."""
    device = torch.device("cuda", torch.cuda.current_device())
    host, buffers, compute = _workload(device)
    _check_results(answer, host, buffers, compute, device)
    _check_speed(answer, host, buffers, compute, device)
    _check_trace(answer, host, buffers, compute, device)
    passed.append(
        "on this GPU: every result consumed, equal to a serial loop's, clearly faster than "
        "it, and a profiler trace with copies to the host running beside kernels"
    )
