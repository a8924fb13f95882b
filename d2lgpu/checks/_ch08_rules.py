"""Rules that both of chapter 8's checkers apply (``08.overlap``, ``08.copy_back``).

* :func:`caller_stream` calls the answer as a caller on a stream of its own does, inside
  ``with torch.cuda.stream(s)``: there the current stream is not the default one, so an
  answer that takes ``torch.cuda.default_stream()`` for the stream its computes run on
  makes the wrong stream wait. :func:`calling_stream` is the stream current at the call.
* :func:`other_stream_waited` names a wait made by a stream other than the one that reads
  (the default stream waited for the copy while the compute ran on the current stream).
* :func:`check_one_copy_per_batch`: a copy to the device per batch; a copy that carries
  several batches (``torch.cat`` of the host batches) leaves nothing to overlap, and a batch
  copied twice pays twice. :func:`check_stream_kept`: the caller's stream is current again.
* :func:`in_pool`: a run's host batches in the memory of the runs before, as a loader's
  pinned buffers are reused, so that a cache keyed by ``data_ptr()`` is seen.
* :func:`check_no_pins`: the batches arrive pinned, and the prompts ask not to pin.
* :func:`check_no_start_wait`: no host wait before the first copy (a ``synchronize()`` at the
  start waits for all the caller's queued work, which the copies could run beside).
* :data:`OTHER_GPU`, :func:`device_seen` and :func:`check_on_device`: one run passes a GPU
  other than the current one, where ``"cuda"`` or ``.cuda()`` alone copy to the wrong GPU.

What it is not: the checkers; :mod:`.ch08_streams` and :mod:`.ch08_copy_back` run the answer.
"""

from __future__ import annotations

import collections
import weakref
from contextlib import contextmanager

import torch

from ..stream_sim import SimStream
from ._util import CheckFailed

__all__ = ["CALLER", "caller_stream", "calling_stream", "other_stream_waited"]
__all__ += ["check_one_copy_per_batch", "in_pool", "check_no_pins", "OTHER_GPU"]
__all__ += ["check_current_gpu_calls", "check_stream_kept"]
__all__ += ["device_seen", "check_on_device", "check_no_start_wait", "check_no_autocast"]

CALLER = "the caller's stream"
OTHER_GPU = torch.device("cuda", 1)
"""The device one simulated run passes: not the current GPU (``cuda:0``)."""


@contextmanager
def caller_stream(gpu, on: bool):
    """With ``on``, a stream named :data:`CALLER` is current in the block, as inside
    ``with torch.cuda.stream(s)``; otherwise the default stream stays current."""
    if not on:
        yield gpu.default
        return
    with SimStream(_gpu=gpu, _name=CALLER) as stream:
        yield stream


def check_stream_kept(gpu, before) -> None:
    """The stream current when the answer was called is current again when it returns (a
    ``torch.cuda.set_stream`` not undone leaves the caller's next work on another stream)."""
    if gpu.current is not before:
        raise CheckFailed(
            f"after your function returned, the current stream was {gpu.current.name}, not "
            f"{before.name}, as when it was called: torch.cuda.set_stream changes it for the "
            "caller too, whose next work then runs there. Use `with torch.cuda.stream(s):`, "
            "which puts the caller's stream back when the block ends"
        )


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
    times = collections.Counter(op.batch for op in copies if op.batch is not None)
    again = min((b for b, k in times.items() if k > 1), default=None)
    if again is not None:
        raise CheckFailed(
            f"batch {again} was copied to the device "
            f"{'twice' if times[again] == 2 else f'{times[again]} times'}: each copy holds a "
            "copy engine for its whole length and takes device memory of its own, for a "
            "batch already there. Copy each batch once, and compute on that copy"
        )
    if any(op.batch is None for op in computes):
        raise CheckFailed(
            "compute got a device tensor that is not one batch's own copy (several batches "
            "joined, or a tensor made on the device: a clone, a cast, a staging tensor, each "
            "an extra kernel and device memory per batch): call compute on the copy of each "
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


def check_no_pins(gpu) -> None:
    """No ``pin_memory()`` call and no pinned memory made: the batches arrive pinned (the
    simulator counts every call)."""
    made = [iv.lane[len("host: ") :] for iv in gpu.host_work if "pin_memory=True" in iv.lane]
    if made:
        raise CheckFailed(
            f"your function made page-locked host memory ({made[0]}) {len(made)} times: the "
            "batches arrive pinned, and the prompt asks not to pin in the function. Copying a "
            "batch into new pinned memory is a copy on the host that holds the loop, as "
            "pin_memory() of it would be. Copy each batch as it arrives, with non_blocking=True"
        )
    pins = [iv for iv in gpu.host_work if iv.lane == "host: pin_memory()"]
    if pins:
        raise CheckFailed(
            f"your function called pin_memory() {len(pins)} times: the batches arrive pinned, "
            "and the prompt asks not to pin in the function. pin_memory() of a pinned batch "
            "does nothing, and of a pageable tensor (a clone, a new buffer) it is a copy on the "
            "host that holds the loop. Copy each batch as it arrives, with non_blocking=True"
        )


def device_seen(kernel, seen: list, made: list | None = None):
    """``kernel`` that notes the device of each device tensor it gets in ``seen``, and a
    weak reference to each tensor it returns in ``made`` (if given)."""

    def compute(*args, **kwargs):
        for t in [*args, *kwargs.values()]:
            if isinstance(t, torch.Tensor) and t.device.type == "cuda":
                seen.append(t.device)
        result = kernel(*args, **kwargs)
        if made is not None and isinstance(result, torch.Tensor):
            made.append(weakref.ref(result))
        return result

    return compute


def check_on_device(seen: list, device: torch.device) -> None:
    """Every tensor compute got (``seen``, by :func:`device_seen`) is on ``device``."""
    wrong = next((d for d in seen if d != device), None)
    if wrong is not None:
        raise CheckFailed(
            f"compute got a tensor on {wrong}, but the device passed in was {device}: the "
            "check also calls your function with a GPU other than the current one. Copy the "
            'batches to `device` (.to(device, non_blocking=True)), not to "cuda" or with '
            ".cuda() alone, which mean the current GPU, and make the streams on it "
            "(torch.cuda.Stream(device), torch.cuda.current_stream(device))"
        )


def check_current_gpu_calls(gpu) -> None:
    """No stream, wait or synchronize of the current GPU (``cuda:0``) where the run's device
    is another: torch.cuda's calls without a device mean the current GPU."""
    if gpu.current_gpu_calls:
        raise CheckFailed(
            f"in the run given device={gpu.device}, not the current GPU, your function called "
            f"{gpu.current_gpu_calls[0]}: without a device, torch.cuda's streams and "
            "synchronize() are the current GPU's (cuda:0), not the device's, so that stream "
            f"orders nothing on {gpu.device} (a copy to {gpu.device} under it goes on "
            f"{gpu.device}'s own current stream) and that synchronize waits for nothing there. "
            "Name the device: torch.cuda.Stream(device), torch.cuda.current_stream(device), "
            "torch.cuda.synchronize(device)"
        )


def check_no_start_wait(why: str, queued: int, first: int) -> None:
    """No host wait (``why``, made when ``queued`` ops had been queued) before the first copy
    (op ``first``): it waits for all the work the caller queued before the call."""
    if queued <= first:
        raise CheckFailed(
            f"the host waited ({why}) at the start, before the first copy: it waits for all "
            "the work the caller queued before the call (a previous step's), which the "
            "copies could run beside, and queues nothing meanwhile. No synchronize in the "
            "function: order the streams on the GPU (wait_stream / wait_event)"
        )


def check_no_autocast(asked) -> None:
    """No ``torch.autocast`` around the computes (``asked``: :func:`._kit_calls.autocasts_asked`'s
    list): on the simulated GPU one for ``"cuda"`` is switched off, so its results look right."""
    if asked:
        device, dtype = asked[0]
        raise CheckFailed(
            f"your function ran under torch.autocast('{device}', dtype={dtype}): on a GPU "
            f"compute's products then run in {dtype}, and its results are no longer "
            "compute(batch)'s, in value or dtype (the simulated GPU has no CUDA, so torch "
            "switched it off here). Call compute as it is given: the precision is the caller's "
            "choice (chapter 4), and overlap is about where copies and computes run, not how"
        )
