"""Rules that both of chapter 8's checkers apply (``08.overlap``, ``08.copy_back``).

* :func:`caller_stream` calls the answer as a caller on a stream of its own does, inside
  ``with torch.cuda.stream(s)``: there the current stream is not the default one, so an
  answer that takes ``torch.cuda.default_stream()`` for the stream its computes run on
  makes the wrong stream wait. :func:`calling_stream` is the stream current at the call.
* :func:`other_stream_waited` names a wait made by a stream other than the one that reads
  (the default stream waited for the copy while the compute ran on the current stream).
* :func:`check_one_copy_per_batch`: a copy to the device per batch; a copy that carries
  several batches (``torch.cat`` of the host batches) leaves nothing to overlap.
* :func:`in_pool`: a run's host batches in the memory of the runs before, as a loader's
  pinned buffers are reused, so that a cache keyed by ``data_ptr()`` is seen.

What it is not: the checkers; :mod:`.ch08_streams` and :mod:`.ch08_copy_back` run the answer.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch

from ..stream_sim import SimStream
from ._util import CheckFailed

__all__ = ["CALLER", "caller_stream", "calling_stream", "other_stream_waited"]
__all__ += ["check_one_copy_per_batch", "in_pool"]

CALLER = "the caller's stream"


@contextmanager
def caller_stream(gpu, on: bool):
    """With ``on``, a stream named :data:`CALLER` is current in the block, as inside
    ``with torch.cuda.stream(s)``; otherwise the default stream stays current."""
    if not on:
        yield gpu.default
        return
    with SimStream(_gpu=gpu, _name=CALLER) as stream:
        yield stream


def calling_stream(gpu):
    """The stream that was current when the answer was called: the caller's, or the default."""
    return next((s for s in gpu.streams if s.name == CALLER), gpu.default)


def other_stream_waited(gpu, reader, writer, written_id: int) -> tuple[str, str] | None:
    """Why ``reader`` (a stream) does not wait for op ``written_id`` on ``writer`` when
    another stream does, and the fix; None if no other stream waited for it."""
    theirs = [
        w
        for w in gpu.waits
        if w.stream not in (reader, writer)
        and w.on is writer
        and w.covers.get(writer.name, -1) >= written_id
    ]
    if not theirs:
        return None
    waiter = theirs[-1].stream
    known = (
        " (torch.cuda.default_stream() is the current stream only when no `with "
        "torch.cuda.stream(...)` block is in force; the check also calls your function "
        "inside one, as a caller on a stream of its own does)"
        if waiter is gpu.default
        else ""
    )
    return (
        f"{waiter.name} was made to wait for {writer.name}, but the work that reads the "
        f"data runs on {reader.name}{known}, and that stream does not wait",
        "Make the stream that reads wait: for the computes, the current stream "
        "(torch.cuda.current_stream(), taken when the function starts; give it to "
        "record_stream too)",
    )


def check_one_copy_per_batch(copies, computes, n: int) -> None:
    """Each batch copied to the device on its own, and each compute on one batch's copy."""
    if n >= 2 and len(copies) < n:
        made = f"{len(copies)} cop{'y' if len(copies) == 1 else 'ies'}"
        raise CheckFailed(
            f"{made} to the device for {n} batches: a copy that carries several "
            "batches (the host batches joined with torch.cat or torch.stack, the computes "
            "on views of the one device tensor) makes compute 0 wait until every batch has "
            "landed, so no copy runs while a compute runs. Copy each batch on its own, the "
            "copy of batch i + 1 queued while batch i is computed"
        )
    if any(op.batch is None for op in computes):
        raise CheckFailed(
            "compute got a device tensor that is not one batch's own copy (several batches "
            "joined, or a tensor made on the device): call compute on the copy of each "
            "batch, one batch per call"
        )


def in_pool(host: list[torch.Tensor], pool: list[torch.Tensor] | None) -> list[torch.Tensor]:
    """``host``'s values in ``pool``'s tensors, made as needed (a new pool where None): the
    first ``len(host)`` of them, the same memory in every run that shares the pool."""
    pool = [] if pool is None else pool
    pool += [torch.empty_like(b) for b in host[len(pool) :]]
    for kept, b in zip(pool, host, strict=False):
        kept.copy_(b)
    return pool[: len(host)]
