"""``08.overlap``'s checks of what ``pipelined`` returned: a list of one result per batch,
each ``compute(batch i)`` in order, in the batch's own dtype (a batch converted on the way,
``.to(device, dtype=...)``, is named), and each the very tensor compute returned (a
``clone()`` of every result is a kernel and a result's memory more, named).

What it is not: the run or the other rules; :mod:`.ch08_streams` runs the answer.
"""

from __future__ import annotations

import torch

from ._kit import alive_after_collecting, close, first_close
from ._util import CheckFailed

__all__ = ["reference_compute", "check_count", "check_values", "check_own_results"]
__all__ += ["buffers_alive", "kept_after", "check_nothing_kept", "check_batches_kept"]
__all__ += ["list_changed"]


def reference_compute(x: torch.Tensor) -> torch.Tensor:
    """The simulated runs' compute: a different number per row of every batch."""
    return (x * 1.5).sin().sum(dim=1)


def check_count(results, host) -> None:
    n = len(host)
    if isinstance(results, torch.Tensor) or not isinstance(results, list | tuple):
        raise CheckFailed(
            f"pipelined returned a {type(results).__name__}: return a list with one result per "
            "batch, [compute(batch 0 on the device), compute(batch 1 ...), ...]"
        )
    if len(results) > n > 0 and _ends_with_this_calls(results, host):
        raise CheckFailed(
            f"pipelined returned {len(results)} results for {n} batches, the last {n} of them "
            "this call's: the list outlives the call (a default argument results=[], a global) "
            "and still holds the earlier calls' results. Make a new list in every call"
        )
    if len(results) != n:
        raise CheckFailed(
            f"pipelined returned {len(results)} results for {n} batches: compute every batch "
            "once (mind the first batch, copied before the loop, and the last one, which has "
            "no next batch to prefetch)"
        )


def _ends_with_this_calls(results, host) -> bool:
    """Whether the last ``len(host)`` results are compute of this call's batches, in order."""
    last = results[-len(host) :]
    return all(
        isinstance(got, torch.Tensor) and got.shape == (want := reference_compute(b)).shape
        and close(got, want)
        for got, b in zip(last, host, strict=True)
    )  # fmt: skip


def check_values(results, host) -> None:
    want = [reference_compute(b) for b in host]
    for i, got in enumerate(results):
        if not isinstance(got, torch.Tensor) or got.shape != want[i].shape:
            raise CheckFailed(f"result {i} is not what compute returned for batch {i}")
        if got.dtype != want[i].dtype:
            raise CheckFailed(
                f"result {i} is {got.dtype}, but batch {i} is {host[i].dtype} and compute of it "
                f"returns {want[i].dtype}: compute got a converted batch (a dtype given to "
                ".to(), .float(), .half(), or a buffer of another dtype copied into). Copy "
                "each batch as it is, .to(device, non_blocking=True): the check also passes "
                "float64 batches, and compute decides its own precision"
            )
        if not close(got, want[i]):
            j = first_close(got, want)
            raise CheckFailed(
                f"result {i} is compute(batch {j}): return the results in the order of the batches"
                if j is not None
                else f"result {i} is not compute(batch {i})"
            )


def check_own_results(gpu, results) -> None:
    """Each result on the device is the tensor compute returned (or a view of it), not a new
    one made from it: a clone or a conversion is a kernel and a result's memory more."""
    mode = gpu.put.__self__  # the simulator's mode: it knows which tensors are on the device
    with torch._C.DisableTorchFunction():
        made = {t.untyped_storage().data_ptr() for ref in gpu.made if (t := ref()) is not None}
        new = [
            i for i, t in enumerate(results)
            if mode.on_device(t) and t.untyped_storage().data_ptr() not in made
        ]  # fmt: skip
    if new:
        ours = ("compute", "the caller's earlier work")  # the kernels that are not extra
        extra = [
            op.label for op in gpu.ops if op.kind == "kernel" and not op.label.startswith(ours)
        ]
        raise CheckFailed(
            f"result {new[0]} is not the tensor compute returned but a new one made from it on "
            f"the device{f' (by {extra[0]})' if extra else ''}: an extra kernel per batch on "
            "the compute stream, and every result twice in device memory. Return compute's "
            "results as they are (a clone() is not needed: each result is memory of its own)"
        )


def buffers_alive(gpu) -> list[torch.Tensor]:
    """The simulated GPU's device tensors alive now (its buffers: no scan of the process)."""
    return [t for ref, _ in list(gpu._buffers.values()) if (t := ref()) is not None]


def kept_after(gpu, before: set[int], leave_out=()) -> list:
    """The simulated GPU's device tensors alive after the call that were not before it
    (``before``: the ``id()`` of :func:`buffers_alive`'s, taken before the call), less
    ``leave_out`` (what it returned) and its views."""
    with torch._C.DisableTorchFunction():
        ours = {t.untyped_storage().data_ptr() for t in leave_out}

    def look():
        with torch._C.DisableTorchFunction():
            return [
                t for t in buffers_alive(gpu)
                if id(t) not in before and t.untyped_storage().data_ptr() not in ours
            ]  # fmt: skip

    return alive_after_collecting(look)


def check_nothing_kept(kept: list, n: int, calls: list) -> None:
    """No device tensor kept once the call returned (``kept``, :func:`kept_after`), and no
    list returned by two calls (``calls``: what each call so far returned)."""
    if kept:
        raise CheckFailed(
            f"after your function returned (a run of {n} batches), {len(kept)} device tensors it "
            "made were still alive: something keeps them (a module-level list, a global, an "
            "attribute of the function, a default argument), so device memory grows with every "
            "call. Keep a tensor only while a stream may still use it: record_stream, or "
            "references dropped before returning, once the copy stream has waited for them"
        )
    if isinstance(calls[-1], list) and any(calls[-1] is r for r in calls[:-1]):
        raise CheckFailed(
            "two calls returned the same list object: a list kept between calls (a global, a "
            "default argument), cleared and filled again, changes the results an earlier "
            "caller still holds. Make a new list in every call"
        )


def list_changed(given: list, now: list) -> bool:
    """Whether the caller's list ``now`` no longer holds ``given``'s items, in that order."""
    return len(given) != len(now) or any(a is not b for a, b in zip(given, now, strict=False))


def check_batches_kept(changed: bool) -> None:
    """The caller's list of batches, as it was before the call (``changed``: whether not)."""
    if changed:
        raise CheckFailed(
            "your function changed the caller's list of batches (an item popped, set to None "
            "or replaced, the list emptied or reordered): the list is the caller's, lent for "
            "the call, and a loader or the next epoch reads it again. To let go of a host "
            "batch early, drop references of your own (a local copy of the list, an index)"
        )
