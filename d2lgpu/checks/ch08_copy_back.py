"""Checker of chapter 8's second exercise: ``08.copy_back``, results copied back without a stall.

The answer is ``pipelined_to_host(batches, compute, device, buffers, consume)``. As in
``08.overlap`` (:mod:`.ch08_streams`) it copies each pinned host batch to ``device`` and
computes on it, the copy of batch ``i + 1`` beside compute ``i``; then it copies each
result back to the host into one of two pinned ``buffers`` (host memory for two results
only), and calls ``consume(i, buffer)`` once per batch, in order, with the buffer that holds
``compute(batch i)``. A buffer is free again once ``consume`` has returned. The chapter's
``overlapped`` (section 8.4) and ``results_to_host`` (section 8.8) do not solve it: the
first never copies back, the second holds every result in new pinned memory and reads
them all at the end.

It runs on every machine against the simulated GPU of :mod:`d2lgpu.stream_sim`, with 6, 1, 4,
33 and 5 batches (the 5 in float64; the 1 and the 5 given ``cuda:1``, not the current GPU, so
that ``"cuda"`` or ``.cuda()`` for ``device`` is seen, on later batches too; the 4 with copies
back twice as long as the computes), then 3 called inside ``with
torch.cuda.stream(s)``, where the current stream is not the default one; the runs reuse the
host batches' memory, as a loader's pinned buffers do. Checked, each with a hint that names the
mistake: ``consume`` called once per batch, in order, on the caller's thread (a thread beside
the loop is not watched, and lets the loop reuse a buffer before ``consume`` returned), with one
of ``buffers`` (:mod:`._ch08_copy_consume`); each batch computed once, on ``device``; no
``pin_memory()`` call; no copy to the device after batch 0's, and no copy back but the
last, on the compute stream (either would queue in front of the next compute); no race (a
compute that does not wait for its copy, a copy back that does not wait for its compute, device
memory freed while another stream may use it); no copy back into a buffer whose result has not
been consumed yet; no result handed to ``consume`` before the host knows its copy has landed;
the results; no host wait at the start (it waits for the caller's queued work), none in the
loop that reads data (``.cpu()``, ``.item()``, a blocking
copy) or that waits for the newest compute before the next one is queued (the GPU would stand
idle while the host waits); and, in the simulated timeline, all three stages overlapping: the
run takes at most a quarter of the way from the best overlapped time to the serial one.

On a real GPU (:mod:`._copy_back_gpu`) the answer also runs for real: right results,
faster than a serial loop by a margin, and copies to the host beside kernels in a
``torch.profiler`` trace.
"""

from __future__ import annotations

import inspect

import torch

from ._ch08_copy_consume import (
    check_buffer_reuse,
    check_consumed,
    check_handed_buffers,
    check_values,
)
from ._ch08_copy_races import check_copy_back_hazards, check_landed
from ._ch08_copy_run import (
    FLOAT64_RUN,
    ON_CALLER_STREAM,
    RUNS,
    best_s,
    ops,
    reference_compute,
    serial_s,
    simulate,
)
from ._ch08_hazards import READ_NAMES
from ._ch08_results import check_batches_kept, check_nothing_kept
from ._ch08_rules import (
    OTHER_GPU,
    calling_stream,
    check_current_gpu_calls,
    check_no_autocast,
    check_no_pins,
    check_no_start_wait,
    check_on_device,
    check_one_copy_per_batch,
)
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_copy_back", "reference_compute", "simulate", "best_s", "serial_s"]

# --- what is checked, in order ---------------------------------------------------------------


def _check_signature(answer) -> None:
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('08.copy_back', pipelined_to_host)")
    try:
        inspect.signature(answer).bind(None, None, None, None, None)
    except TypeError:
        raise CheckFailed(
            "pipelined_to_host takes five arguments, (batches, compute, device, buffers, "
            "consume): the batches, the compute, the device as in exercise 8.1, then the two "
            "pinned buffers to copy results into and the function to hand each result to"
        ) from None
    except ValueError:  # no signature to read (a builtin): let the call say what is wrong
        pass


def _check_streams(run, n: int) -> None:
    gpu = run.gpu
    computes = ops(gpu, "kernel")
    if any(not op.flags.get("on_device") for op in computes):
        raise CheckFailed(
            "compute got a host tensor: copy each batch to the device first, non-blocking, "
            "and call compute on the copy"
        )
    check_one_copy_per_batch(ops(gpu, "copy", "h2d"), computes, n)
    per_batch = [sum(op.batch == i for op in computes) for i in range(n)]
    if per_batch != [1] * n:
        raise CheckFailed(
            f"compute ran {per_batch} times on batches 0 to {n - 1}: call the compute passed "
            "in once per batch, on that batch's copy on the device"
        )
    stream = computes[0].stream
    for op in ops(gpu, "copy", "h2d"):
        if op.batch not in (None, 0) and op.stream is stream:
            raise CheckFailed(
                f"batch {op.batch} was copied to the device on {op.stream.name}, the stream "
                "the computes run on, so that copy waits for the computes queued before it: "
                "copy on a side stream, as in exercise 8.1"
            )
    for op in ops(gpu, "copy", "d2h"):  # the blocking ones are syncs: _check_host_waits
        late = op.batch is not None and op.batch < n - 1 and op.flags.get("non_blocking")
        if late and op.stream is stream:
            raise CheckFailed(
                f"result {op.batch} was copied back to the host on {op.stream.name}, the "
                f"stream the computes run on, so compute {op.batch + 1} waits behind that "
                "copy. Copy back on a stream of its own (torch.cuda.Stream) that waits for "
                "the compute on the GPU"
            )
    for copy_id, t in run.targets.items():
        batch = gpu.ops[copy_id].batch
        if run.buffer_index(t) is None and batch is not None:
            raise CheckFailed(
                f"result {batch} was copied to the host into new pinned memory "
                "(.to('cpu', non_blocking=True) makes a tensor per result): copy it into "
                "one of the two buffers given, with copy_(..., non_blocking=True)"
            )

    current = calling_stream(gpu)
    unordered = [  # a stream of the answer's own that waited for the caller's is another style
        op
        for op in computes
        if op.stream is not current
        and not any(w.stream is op.stream and w.on is current and w.at <= op.id for w in gpu.waits)
    ]
    if unordered:
        op = unordered[0]
        default = op.stream is gpu.default
        raise CheckFailed(
            f"compute of batch {op.batch} ran on {op.stream.name}, not on the current stream "
            f"(the one current when pipelined_to_host was called, here {current.name}), and "
            f"{op.stream.name} never waited for it: work the caller queued on its stream before "
            "the call (a weight update that compute reads, say) comes before the computes only "
            "on that stream, or on one made to wait for it (wait_stream). Queue the computes on "
            "the current stream, torch.cuda.current_stream(device), as in exercise 8.1"
            + ("; torch.cuda.default_stream() is not always the current one" if default else "")
        )


def _is_sync(why: str) -> bool:
    """A wait for work the host asked to wait for (an event's, a stream's or the device's
    synchronize, a query polled): not a read of data."""
    return why.endswith("synchronize()") or "query()" in why


def _check_host_waits(run, n: int) -> None:
    gpu = run.gpu
    computes = ops(gpu, "kernel")
    last = computes[-1].id
    first = min(op.id for op in gpu.ops if op.kind == "copy")
    for why, follows, queued in run.waits:
        if _is_sync(why):
            check_no_start_wait(why, queued, first)
        if not first < queued <= last:
            continue  # before the first copy, or after the last compute was queued
        if not _is_sync(why):
            if why.startswith("copy_ of a device value"):
                why = "a copy_ to the host without non_blocking=True"
            raise CheckFailed(
                f"a sync in the loop: the host waited ({READ_NAMES.get(why, why)}) before the last compute was "
                "queued. A read of device data, a .cpu(), or a copy without "
                "non_blocking=True holds the host until the GPU gets there, so nothing is "
                "queued meanwhile. Copy results back non-blocking into the buffers, and make "
                "the host wait only for copies whose result it hands over"
            )
        queued_computes = [op for op in computes if op.id < queued]
        newest = queued_computes[-1] if queued_computes else None
        if newest is None:
            raise CheckFailed(
                f"the host waited ({why}) before the first compute was queued: the GPU has "
                "nothing of yours to compute while the host waits, and compute 0 starts only "
                "once the host comes back to queue it. Let the GPU wait instead: compute 0's "
                "stream waits for its copy (wait_event / wait_stream), with no host wait"
            )
        if newest.batch is None or newest.batch >= n - 1:
            continue
        if gpu.after(newest, follows):
            raise CheckFailed(
                f"the host waited ({why}) for compute {newest.batch}, the newest one queued, "
                f"before queueing compute {newest.batch + 1}: the GPU stands idle until the "
                "host queues more. Wait for the copy of a result only once the next batch's "
                "compute (and its copy back) is queued"
            )
        ahead = [op.id for op in ops(gpu, "copy", "h2d") if op.batch == newest.batch + 1]
        if not ahead or min(ahead) >= queued:
            raise CheckFailed(
                f"the host waited ({why}) before batch {newest.batch + 1} was copied to the "
                f"device, so that copy cannot run beside compute {newest.batch}: the next "
                "compute then waits for its copy. Queue the next batch's copy in before the "
                "host waits for anything"
            )


def _check_overlap(run, n: int, h2d_s: float, compute_s: float, d2h_s: float) -> None:
    if n < 2:
        return
    best, serial = best_s(n, h2d_s, compute_s, d2h_s), serial_s(n, h2d_s, compute_s, d2h_s)
    if run.end_s <= best + 0.25 * (serial - best):
        return
    gpu = run.gpu
    h2d_streams = {op.stream.name for op in ops(gpu, "copy", "h2d")}
    shared = {op.stream.name for op in ops(gpu, "copy", "d2h")} & h2d_streams
    why = (
        f"The copies back share {sorted(shared)[0]} with the copies to the device, so each "
        "copy in queues behind the copy back of a result, which waits for its compute: give "
        "the copies back a stream of their own"
        if shared
        else "Look at the timeline (print(gpu.timeline()) inside simulated_cuda) for a stage "
        "that waits for another it does not need"
    )
    raise CheckFailed(
        f"on the simulated GPU, {n} batches with {h2d_s * 1e3:g} ms copies in, "
        f"{compute_s * 1e3:g} ms computes and {d2h_s * 1e3:g} ms copies back took "
        f"{run.end_s * 1e3:.1f} ms: all three overlapped take {best * 1e3:.1f} ms, one after "
        f"another {serial * 1e3:.1f} ms. {why}"
    )


def _simulated(answer, passed) -> None:
    main: tuple[int, float, float, float] | None = None
    runs, pool = [(r, False) for r in RUNS] + [(ON_CALLER_STREAM, True)], list[torch.Tensor]()
    for (n, h2d_s, compute_s, d2h_s), on_caller in runs:
        # not the current GPU, where "cuda" or .cuda() is not it: 1 batch, and 5 (a second)
        device = OTHER_GPU if n in (1, FLOAT64_RUN) else None
        dtype = torch.float64 if n == FLOAT64_RUN else torch.float32  # new memory: no pool
        run, host = simulate(answer, n, h2d_s, compute_s, d2h_s, on_caller,
                             pool if n != FLOAT64_RUN else None, device=device, dtype=dtype)  # fmt: skip
        check_consumed(run, n)
        check_batches_kept(run.batches_changed)
        check_no_autocast(run.autocasts)
        check_current_gpu_calls(run.gpu)
        if run.buffers_changed:
            raise CheckFailed(
                "your function changed the list of buffers it was given (its order or its "
                "items: buffers.reverse(), a swap, pop or append): that list is the caller's. "
                "Take turns by index instead, buffers[i % 2]"
            )
        _check_streams(run, n)
        check_on_device(run.devices, run.gpu.device)
        check_no_pins(run.gpu)
        check_handed_buffers(run)
        check_buffer_reuse(run)
        check_copy_back_hazards(run)
        check_landed(run)
        check_values(run, host)
        if run.returned is not None:
            article = "an" if run.returned[0] in "aeiou" else "a"
            raise CheckFailed(
                f"your function returned {article} {run.returned}: return nothing. The check reads "
                "what consume got; results handed back on the device would stay in device "
                "memory for as long as the caller holds them"
            )
        check_nothing_kept(run.kept, n, [None])
        _check_host_waits(run, n)
        _check_overlap(run, n, h2d_s, compute_s, d2h_s)
        if main is None:
            best, serial = best_s(n, h2d_s, compute_s, d2h_s), serial_s(n, h2d_s, compute_s, d2h_s)
            main = (n, run.end_s, best, serial)
    assert main is not None  # RUNS is not empty
    n, took, best, serial = main
    passed += [
        "consume(i, buffer) called once per batch, in order, with one of the two buffers "
        "holding compute(batch i), on the caller's thread, for 6, 1 (given cuda:1, not the "
        "current GPU), 4, 33 and 5 (in float64, on cuda:1) batches, and for 3 with the "
        "function called inside `with torch.cuda.stream(s)` (on a simulated GPU)",
        "copies to the device beside the computes, copies back on a stream other than the "
        "computes', into the buffers; every stream waits on the GPU for what it reads; no "
        "device memory freed while another stream may use it",
        "no buffer copied into before its result was consumed, and no result consumed before "
        "the host knew its copy had landed",
        "in the loop the host never reads device data and never waits for the newest compute "
        "before the next one is queued (nor at the start, before the first copy)",
        f"simulated with 1 ms per stage, {n} batches take {took * 1e3:.1f} ms (all three "
        f"stages overlapped: {best * 1e3:.1f} ms; one after another: {serial * 1e3:.1f} ms)",
    ]


def check_copy_back(answer, passed):
    """``pipelined_to_host(batches, compute, device, buffers, consume)`` on a simulated GPU,
    then on a real one if any."""
    _check_signature(answer)
    one_cpu_thread(_simulated)(answer, passed)
    if torch.cuda.is_available():
        from ._copy_back_gpu import check_on_gpu

        check_on_gpu(answer, passed)
