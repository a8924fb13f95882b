"""``08.copy_back``'s checks of what ``consume`` got: the calls, the buffers, the values.

:func:`check_consumed`: ``consume(i, buffer)`` once per batch, in order, on the caller's
thread (a thread beside the loop is not watched, and it lets the loop copy into a buffer
before ``consume`` has returned), with one of the two buffers; :func:`check_handed_buffers`:
each buffer handed over holds the result of its index; :func:`check_buffer_reuse`: no copy
back into a buffer whose result was not consumed yet; :func:`check_values`: the values.

What it is not: the run (:mod:`._ch08_copy_run`) or the checker (:mod:`.ch08_copy_back`).
"""

from __future__ import annotations

import torch

from ._ch08_copy_run import N_BUFFERS, ops, reference_compute
from ._kit import Tolerance, close, first_close
from ._util import CheckFailed

__all__ = ["check_consumed", "check_handed_buffers", "check_buffer_reuse", "check_values"]


def check_consumed(run, n: int) -> None:
    calls = run.consumed
    if not calls:
        raise CheckFailed(
            f"consume was never called for {n} batches: the function's return value is not "
            "used. Hand each result to the host with consume(i, buffer), once per batch, in "
            "order, the buffer holding compute(batch i)"
        )
    elsewhere = next((c for c in calls if c["thread"] != run.thread), None)
    if elsewhere is not None:
        raise CheckFailed(
            f"consume({elsewhere['index']}, ...) was called on another thread (a Thread, a "
            "ThreadPoolExecutor), not the one that called your function: the loop goes on "
            "beside it, so it may copy the next result into a buffer before consume has "
            "returned for the one it holds. A buffer is free only once consume has returned: "
            "call consume in the loop, after waiting for that copy only (event.synchronize())"
        )
    indices = [c["index"] for c in calls]
    if indices != list(range(n)):
        raise CheckFailed(
            f"consume was called with the indices {indices} for {n} batches: call "
            f"consume(i, buffer) once for each i, in order, 0 to {n - 1} (mind the last "
            "batch, whose result is handed over after the loop)"
        )
    for c in calls:
        if c["buffer"] is None:
            what = (
                "a device tensor"
                if c["on_device"]
                else "a tensor that is not one of buffers (new memory, or a copy of one)"
            )
            raise CheckFailed(
                f"consume({c['index']}, ...) got {what}: the host reads results only from "
                "the two pinned buffers given. Copy each result into one of them from the "
                "device, non-blocking, and hand that buffer to consume (new pinned memory "
                "per result, as .to('cpu', non_blocking=True) makes, is what the two buffers "
                "are there to avoid)"
            )


def check_handed_buffers(run) -> None:
    """Each consume(i, buffer) gets a buffer that result i was copied into."""
    gpu = run.gpu
    went: dict[int | None, set[int | None]] = {}  # result -> the buffers it was copied into
    for copy_id, t in run.targets.items():
        went.setdefault(gpu.ops[copy_id].batch, set()).add(run.buffer_index(t))
    # a blocking copy's target is not recorded: it is a sync, which _check_host_waits names
    blocking = {op.batch for op in ops(gpu, "copy", "d2h") if not op.flags.get("non_blocking")}
    for c in run.consumed:
        i, j = c["index"], c["buffer"]
        if j in went.get(i, ()) or i in blocking:
            continue
        into = sorted(k for k in went.get(i, ()) if k is not None)
        if not into and j in went.get(None, ()):  # copied back from a device tensor of its own
            raise CheckFailed(
                f"consume({i}, buffers[{j}]): buffers[{j}] was filled from a device tensor that "
                f"is not result {i} as compute returned it (a staging tensor, a cast, a copy "
                "made on the device): an extra device copy per result, and one tensor reused for every "
                "result is overwritten by the next result while its copy back may still read "
                "it. Copy compute's result itself into the buffer"
            )
        raise CheckFailed(
            f"consume({i}, buffers[{j}]): result {i} was "
            + (f"copied into buffers[{into[0]}]" if into else "never copied into a buffer")
            + ". Hand consume the buffer that result's copy went into"
            + ("" if into else ", after copying it there with copy_(..., non_blocking=True)")
        )


def check_buffer_reuse(run) -> None:
    """No copy back into a buffer whose previous result the host has not consumed yet."""
    gpu = run.gpu
    last: dict[int, int | None] = {}  # buffer -> the result last copied into it
    for copy_id in sorted(run.targets):
        j = run.buffer_index(run.targets[copy_id])
        if j is None:
            continue
        batch = gpu.ops[copy_id].batch
        before = last.get(j)
        if before is not None and before != batch:
            done = [c for c in run.consumed if c["index"] == before and c["buffer"] == j]
            if not done or done[0]["queued"] > copy_id:
                raise CheckFailed(
                    f"the copy of result {batch} into buffers[{j}] was queued before result "
                    f"{before}, which that buffer held, was handed to consume: it overwrites a "
                    "result the host has not read yet. A buffer is free only once consume has "
                    "returned for its result; hand result i over before copying result "
                    f"i + {N_BUFFERS} into its buffer"
                )
        last[j] = batch


# float64 results are compared at float64's precision: a batch or result that went through a
# float32 tensor on the way (torch.empty without dtype=) is within allclose's defaults
_FLOAT64 = Tolerance(rtol=1e-12, atol=1e-12)


def check_values(run, host) -> None:
    want = [reference_compute(b) for b in host]
    for c in run.consumed:
        i, got = c["index"], c["value"]
        tol = _FLOAT64 if want[i].dtype == torch.float64 else None
        if close(got, want[i], tol):
            continue
        if tol is not None and close(got, want[i]):
            raise CheckFailed(
                f"consume({i}, ...) got compute(batch {i}) rounded to float32, though batch {i} "
                "is float64: the batch or its result went through a float32 tensor on the way "
                "(torch.empty(shape, device=device) without dtype=, or .float()). Keep each "
                "batch's own dtype: batch.to(device, non_blocking=True), or empty_like(batch)"
            )
        j = first_close(got, want)
        raise CheckFailed(
            f"consume({i}, ...) got compute(batch {j}): hand each buffer over with the index "
            "of the result it holds"
            if j is not None
            else f"consume({i}, ...) got a buffer that does not hold compute(batch {i})"
        )
