"""Checker of chapter 8: ``08.overlap``, a copy-compute pipeline on two CUDA streams.

The answer is ``pipelined(batches, compute, device) -> list``: it copies each
host batch to ``device`` and returns ``[compute(x) for each copied batch]``, in
order, with the copy of batch ``i + 1`` running while batch ``i`` is computed.
The batches arrive pinned, as ``DataLoader(pin_memory=True)`` hands them over
(pinned in its own thread, off the loop), in the simulated check and on a real
GPU alike. The prompt asks not to pin in the function, and any ``pin_memory()`` call
is named: of a pinned batch it returns the batch and does nothing, of a pageable tensor
it is a copy on the host that holds the loop.

It runs on every machine against a simulated GPU (:mod:`d2lgpu.stream_sim`),
which records what the answer queued, on which stream, what waited for what,
and when the host waited, with batches of 6, 1, 3 and 33 (the 1 given ``cuda:1``, not the
current GPU, so that ``"cuda"`` for ``device`` is seen; the 3 in float64, with copies
slower than the computes, so that a batch converted on the way is seen), then 4 called inside ``with torch.cuda.stream(s)``, as a
caller on a stream of its own calls it (there the current stream, where the computes go,
is not the default stream). Checked, each with a hint that names the mistake:
the number of results; every copy from pinned memory, with
``non_blocking=True``, and every copy but batch 0's on a stream other than the
computes' (batch 0's may go on the compute stream: nothing runs before it
in the call for it to overlap with); every compute waiting, on the GPU,
for its own copy (a compute that starts before its copy has landed computes
on the wrong data); no device buffer freed or overwritten while another stream
may still use it (``record_stream``, or references kept until the computes
are done); the results, in order, each compute's own tensor in the batch's dtype
(:mod:`._ch08_results`: a ``clone()`` of each is a kernel and a result's memory more);
no host wait from the start until the last compute is queued (a ``synchronize()`` at the
start waits for the caller's queued work; a read of the results after that is fine); and, in
the simulated timeline, copies running while computes run. On a real GPU (:mod:`._stream_gpu`) the answer
also runs for real: right results, faster than a serial loop by a margin,
and copies overlapping kernels in a ``torch.profiler`` trace.
"""

from __future__ import annotations

import threading

import torch

from ..stream_sim import simulated_cuda
from ..streams import pipeline_time
from ._ch08_hazards import READ_NAMES, check_hazards
from ._ch08_results import (
    buffers_alive,
    check_batches_kept,
    check_count,
    check_nothing_kept,
    check_own_results,
    check_values,
    kept_after,
    list_changed,
    reference_compute,
)
from ._ch08_rules import (
    OTHER_GPU,
    caller_stream,
    calling_stream,
    check_current_gpu_calls,
    check_no_autocast,
    check_no_pins,
    check_no_start_wait,
    check_on_device,
    check_one_copy_per_batch,
    check_stream_kept,
    device_seen,
    in_pool,
)
from ._kit_calls import autocasts_asked
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_overlap", "reference_compute", "simulate"]

# batches, copy s, compute s, whether the caller calls it on a stream of its own
_RUNS = (
    (6, 1e-3, 1e-3, False),
    (1, 1e-3, 1e-3, False),  # on OTHER_GPU: not the current GPU, which "cuda" alone names
    (3, 2e-3, 0.5e-3, False),  # batches in float64: compute must get them as they are
    (4, 1e-3, 1e-3, True),  # the caller's own stream current: not the default stream
    (33, 1e-3, 1e-3, False),  # more batches than a loader's usual period of 8, 16 or 32
)
_FLOAT64_RUN, _OTHER_GPU_RUN = 3, 1  # the runs (by their number of batches) named above


def simulate(answer, n: int, copy_s: float, compute_s: float, on_caller_stream: bool = False,
             pool: list | None = None, dtype=torch.float32, device=None):  # fmt: skip
    """Run ``answer`` on a simulated GPU with ``n`` pinned host batches of ``dtype``; return
    ``(gpu, results, host_batches)``, with ``gpu.seen`` the devices of the tensors compute got
    (``device``: the GPU passed, ``cuda:0`` unless given) and ``gpu.made`` weak references to
    what it returned. With ``on_caller_stream`` the call is made inside
    ``with torch.cuda.stream(s)``, so that the current stream is not the default one
    (:func:`._ch08_rules.calling_stream`). The batches are ``pool``'s tensors, made as
    needed, with this run's values: runs that share a pool reuse the same host memory, as a
    loader's pinned buffers are, so a cache keyed by ``data_ptr()`` is seen."""
    gen = torch.Generator().manual_seed(80 + n)
    host = [torch.randn(5, 4, generator=gen, dtype=dtype) for _ in range(n)]
    reused = in_pool(host, pool)
    with simulated_cuda(copy_s, compute_s) as gpu, caller_stream(gpu, on_caller_stream):
        # pinned beforehand, as DataLoader(pin_memory=True) gives them: no host time here
        batches = [gpu.name_batch(b, i, pinned=True) for i, b in enumerate(reused)]
        _earlier_work(gpu)
        gpu.device, gpu.seen, gpu.made = gpu.device if device is None else device, [], []
        compute = device_seen(gpu.kernel(reference_compute), gpu.seen, gpu.made)
        before = {id(t) for t in buffers_alive(gpu)}
        at_call, given = gpu.current, list(batches)
        with autocasts_asked() as gpu.autocasts:
            results = answer(batches, compute, gpu.device)
        check_stream_kept(gpu, at_call)
        gpu.batches_changed = list_changed(given, batches)
        del batches, given
        shown = results if isinstance(results, list | tuple) else []
        gpu.kept = kept_after(gpu, before, [r for r in shown if isinstance(r, torch.Tensor)])
    return gpu, results, host


def _earlier_work(gpu) -> None:
    """Work the caller queued on the current stream before the call, whose memory is freed
    while it may still run, as a training loop's previous step leaves: memory allocated on
    that stream in the call may be that block, so another stream must wait before using it."""
    earlier = torch.zeros(4, device=gpu.device)
    gpu.kernel(lambda t: None, label="the caller's earlier work", seconds=0.0)(earlier)


def _ops(gpu, kind, label):
    """The answer's copies to the device (``"copy"``) or its computes (``"compute"``)."""
    ops = [op for op in gpu.ops if op.kind == kind and op.label.startswith(label)]
    return [op for op in ops if kind != "copy" or op.flags.get("direction") == "h2d"]


def _check_copies(gpu, n: int) -> None:
    computes, copies = _ops(gpu, "kernel", "compute"), _ops(gpu, "copy", "copy")
    if any(not op.flags.get("on_device") for op in computes):
        raise CheckFailed(
            "compute got a host tensor: call compute on each batch's copy on the device "
            "(made with .to(device, non_blocking=True)), not on the host batch"
        )
    if not computes:
        raise CheckFailed(
            f"compute was called 0 times for {n} batches: call the compute passed in, on each "
            "batch once (not a compute written in or kept from an earlier call: the checker "
            "passes its own, which runs on the simulated GPU)"
        )
    if len(computes) != n:
        raise CheckFailed(f"compute was called {len(computes)} times for {n} batches: once each")
    current = calling_stream(gpu)
    for op in computes:
        if op.stream is not current:
            raise CheckFailed(
                f"compute of batch {op.batch} ran on {op.stream.name}, not on the current stream "
                f"(the one current when pipelined was called, here {current.name}): the caller "
                "reads the results there, and the copies need a stream of their own to overlap "
                "the computes. Queue only the copies inside the side stream's `with "
                "torch.cuda.stream` block"
                + (
                    "; it was queued from a thread of your own, whose current stream is its "
                    "own (each thread has one, and a new thread's is the default stream): "
                    "queue the computes from the thread that called pipelined"
                    if op.flags.get("thread", threading.get_ident()) != threading.get_ident()
                    else "; torch.cuda.current_stream() is the current stream, "
                    "torch.cuda.default_stream() is not always it"
                    if op.stream is gpu.default
                    else ""
                )
            )
    check_one_copy_per_batch(copies, computes, n)
    per_batch = [sum(op.batch == i for op in computes) for i in range(n)]
    if per_batch != [1] * n:
        twice, never = per_batch.index(max(per_batch)), per_batch.index(0)
        raise CheckFailed(
            f"compute ran on batch {twice} {max(per_batch)} times and never on batch {never}: "
            "after prefetching batch i + 1, compute the copy of batch i (keep the two in "
            "separate names)"
        )
    check_no_pins(gpu)
    pairs = []
    for i in range(n):
        mine = [op for op in copies if op.batch == i]
        if len(mine) != 1:
            raise CheckFailed(f"batch {i} was copied to the device {len(mine)} times: copy it once")
        pairs.append((i, mine[0], next(op for op in computes if op.batch == i)))  # one each: above
    for i, copy, compute in pairs[1:]:  # batch 0's copy has nothing before it to overlap with
        if copy.stream is compute.stream:
            raise CheckFailed(
                f"batch {i} was copied on {copy.stream.name}, the stream its compute runs on, so "
                "the copy waits for the computes queued before it: nothing overlaps. Queue the "
                "copies on a side stream of their own (a torch.cuda.Stream, made current for "
                "them with torch.cuda.stream)"
            )
    for i, copy, _ in pairs:
        if not copy.flags["pinned"]:
            raise CheckFailed(
                f"batch {i} was copied from pageable memory: such a copy holds the host until it "
                "is done, so the next compute is launched late. The batches arrive pinned: copy "
                "each one as it arrives, with non_blocking=True (a clone() or a dtype change on "
                "the host makes a new, pageable tensor)"
            )
        if not copy.flags["non_blocking"]:
            raise CheckFailed(
                f"batch {i} was copied without non_blocking=True: the host waits for that copy, "
                "so it cannot queue the compute meanwhile"
            )


def _check_host_waits(gpu) -> None:
    copies, computes = _ops(gpu, "copy", "copy"), _ops(gpu, "kernel", "compute")
    first, last = copies[0].id, computes[-1].id
    for why, queued in gpu.host_waits:
        if not why.startswith("a copy"):  # a blocking copy is named with the copies
            check_no_start_wait(READ_NAMES.get(why, why), queued, first)
        if first < queued <= last and not why.startswith("a copy"):
            why = READ_NAMES.get(why, why)
            raise CheckFailed(
                f"the host waited ({why}) before the last compute was queued: every wait in the "
                "loop stops the host from queueing the next copy while the GPU computes. Let the "
                "GPU wait instead (compute_stream.wait_stream / wait_event), and read results "
                "only after the loop"
            )


def _pipeline_s(gpu) -> float:
    """Simulated seconds until the answer's last compute ended: results read back to the host
    after the loop (``r.cpu()``) are not part of the pipeline. Every compute waits for its own
    copy (``check_hazards`` runs first), so no copy to the device ends later."""
    return max(op.end for op in _ops(gpu, "kernel", "compute"))


def _check_overlap(gpu, n, copy_s, compute_s) -> None:
    if n < 2:
        return
    copies, computes = _ops(gpu, "copy", "copy"), _ops(gpu, "kernel", "compute")
    serial = pipeline_time(copy_s, compute_s, n, overlapped=False)
    best = pipeline_time(copy_s, compute_s, n)
    if _pipeline_s(gpu) <= best + 0.5 * (serial - best):
        return
    for i in range(n - 1):
        nxt = next(op for op in copies if op.batch == i + 1)
        done = next(op for op in computes if op.batch == i)
        if gpu.after(done, nxt.follows):
            raise CheckFailed(
                f"the copy of batch {i + 1} waits for the compute of batch {i} (the copy stream "
                "waits for the compute stream in the loop, or the copy was queued after it on "
                "one stream): issue copy i + 1 without waiting for compute i"
            )
        if gpu.after(nxt, done.follows):
            raise CheckFailed(
                f"the compute of batch {i} waits for the copy of batch {i + 1} too (the event or "
                "stream it waits for was recorded after that copy: one event reused for every "
                "batch, a wait_stream after queueing the next copy, or every copy queued before "
                f"one wait), so copy {i + 1} cannot run while batch {i} is computed. Make each "
                "compute wait only for its own batch's copy: an event recorded right after it"
            )
    raise CheckFailed(
        f"on the simulated GPU the copies never ran while a compute ran: {n} batches took "
        f"{_pipeline_s(gpu) * 1e3:.1f} ms, one after another {serial * 1e3:.1f} ms. Queue the "
        "copy of batch i + 1 before the host waits for anything of batch i"
    )


def _simulated(answer, passed) -> None:
    pool: list = []  # the runs' host batches, in the same memory
    calls: list = []  # what each run returned
    for n, copy_s, compute_s, on_caller_stream in _RUNS:
        dtype = torch.float64 if n == _FLOAT64_RUN else torch.float32  # new memory: a new pool
        device = OTHER_GPU if n == _OTHER_GPU_RUN else None
        gpu, results, host = simulate(
            answer, n, copy_s, compute_s, on_caller_stream,
            pool if dtype == torch.float32 else None, dtype=dtype, device=device,
        )  # fmt: skip
        check_count(results, host)
        check_batches_kept(gpu.batches_changed)
        check_no_autocast(gpu.autocasts)
        check_current_gpu_calls(gpu)
        _check_copies(gpu, n)
        check_on_device(gpu.seen, gpu.device)
        check_hazards(gpu, n)  # before the values: a race makes them wrong, the hazard says why
        check_values(results, host)
        check_own_results(gpu, results)
        calls.append(results)
        check_nothing_kept(gpu.kept, n, calls)
        _check_host_waits(gpu)
        _check_overlap(gpu, n, copy_s, compute_s)
        if n == _RUNS[0][0]:
            main = (n, _pipeline_s(gpu), pipeline_time(copy_s, compute_s, n, overlapped=False))
    n, took, serial = main
    passed.append(
        "the results are compute(batch i), in order, for 6, 1, 3 and 33 batches (the 1 given "
        "cuda:1, not the current GPU; the 3 in float64, computed as they are), and for 4 with "
        "the function called inside `with torch.cuda.stream(s)` (on a simulated GPU)"
    )
    passed.append(
        "every batch is copied as it arrives, pinned, with non_blocking=True, and every batch "
        "after the first on a side stream (the first may use the compute stream: nothing runs "
        "before it)"
    )
    passed.append(
        "each compute waits on the GPU for its own copy; no device buffer is freed or "
        "overwritten while another stream may still use it"
    )
    passed.append(
        "the host never waits from the start until the last compute is queued (no "
        "synchronize, .item() or event wait)"
    )
    passed.append(
        f"simulated with 1 ms copies and 1 ms computes, {n} batches take {took * 1e3:.1f} ms "
        f"against {serial * 1e3:.1f} ms one after another: the copies overlap the computes"
    )
    return None


def check_overlap(answer, passed):
    """``pipelined(batches, compute, device)`` on a simulated GPU, then on a real one if any."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('08.overlap', pipelined)")
    one_cpu_thread(_simulated)(answer, passed)
    if torch.cuda.is_available():
        from ._stream_gpu import check_on_gpu

        check_on_gpu(answer, passed)
