"""Checkers of chapter 10: ``10.bus_bandwidth`` and ``10.allreduce_grads``.

``10.bus_bandwidth``: the answer is ``bandwidths(nbytes, seconds, world_size, collective)``
returning ``(algbw, busbw)`` in GB/s (10**9 bytes/s), nccl-tests' definitions: ``algbw =
nbytes / seconds``, ``busbw = algbw * factor`` with the factor ``2 (n - 1) / n`` for
all_reduce, ``(n - 1) / n`` for all_gather and reduce_scatter (``nbytes``: the whole
gathered or scattered buffer) and 1 for broadcast; any other string is a ValueError (tried:
an unknown name on 2 ranks and on 1, other cases, aliases, parts of a name). The checker
compares it with those formulas on many cases, and names the usual mistakes (GiB instead of
GB, the all-reduce factor everywhere, an integer division, ...).

``10.allreduce_grads``: the answer is ``average_gradients(model)``, called on every rank
after ``loss.backward()``; it must leave in each ``p.grad`` the average over the ranks.
The checker runs it on two real ``gloo`` processes (:mod:`._ranks`), a few SGD steps, and
compares each rank's gradients after the call with the average, the sum, the maximum, the
rank's own gradient... of what the ranks computed, then the final parameters with one
process trained on the global batch; then the steps' gradients again on three ranks, so
that a division by 2 written in is seen. At one step rank 0's share of the batch is zeros, so
that a rank skipping an all-zero gradient calls other collectives than the others. Each
call's cost is read too (:mod:`._ch10_averaging`): all-reduces only, each gradient once (a
second model, in float64, has a layer under two names and a buffer: neither sent twice, nor a
narrower flat buffer, nor the buffer), no process group made at every call, no gradient copied
to the host, no value read on the host, and no collective run by hooks during backward.
"""

from __future__ import annotations

import collections

import torch

from . import _ranks
from ._ch10_averaging import (
    check_cost,
    misplaced_divisions_hint,
    needed_and_sent,
    never_sent,
    not_all_reduce,
)
from ._ch10_bandwidth import FACTORS
from ._ch10_bandwidth_edges import check_bus_bandwidth
from ._ch10_between_calls import check_kept, late_hint
from ._ch10_by_hand import values_from_elsewhere
from ._util import CheckFailed, one_cpu_thread

__all__ = ["FACTORS", "check_bus_bandwidth", "check_allreduce_grads"]


@one_cpu_thread
def check_allreduce_grads(answer, passed: list[str]) -> None:
    """``10.allreduce_grads``: gradients averaged over 2 gloo ranks, by hand."""
    average_gradients = answer
    if not callable(average_gradients):
        raise CheckFailed(
            f"the answer must be the function average_gradients, got {average_gradients!r}"
        )
    # First the reference, in this process: ranks forked after it (where torch sees no GPU)
    # find torch's optimizer and autograd machinery loaded already instead of each loading them.
    reference = _ranks.reference_steps()
    records = _ranks.run_ranks(average_gradients)
    _check_steps(records)
    # 3 ranks, uneven shares of the batch: the steps' gradients only (one process on the
    # global batch is not their average then)
    _check_steps(_ranks.run_ranks(average_gradients, world=3))
    passed.append(
        f"every gradient averaged over {len(records)} gloo ranks, after each of {_ranks.STEPS} "
        "steps, and over 3 ranks (so that a division by 2 written in is seen)"
    )
    passed.append("parameters without a gradient (unused) left alone; parameters unchanged")
    check_cost(records)
    check_kept(records, _ranks.STEPS)  # what the calls keep: the first model's steps, then all
    passed.append("each call all-reduces each gradient once, and calls no other collective")
    for rank, record in enumerate(records):
        for name, value in record["final"].items():
            if not torch.allclose(value, reference[name], rtol=1e-4, atol=1e-6):
                raise CheckFailed(
                    f"after {_ranks.STEPS} steps rank {rank}'s {name} differs from one process "
                    "trained on the global batch, though each step's gradients were right: "
                    "does your function keep state between calls?"
                )
    passed.append("final parameters equal one process trained on the global batch")


_OWN = "a parameter of the model itself"  # the hint's words, which the second model's reads


def _check_steps(records) -> None:
    """Each step's gradients on every rank, against what the ranks computed; the steps
    after the first model's are a second model's, new in the same process."""
    averages: dict[str, torch.Tensor] = {}  # each gradient's average at the step before
    for step in range(len(records[0]["steps"])):
        if step < _ranks.STEPS:
            _check_step([r["steps"][step] for r in records], step, averages)
            continue
        try:
            _check_step([r["steps"][step] for r in records], step - _ranks.STEPS, {})
        except CheckFailed as failed:
            kept = _OWN not in failed.hint  # a parameter of the model's own missed: not kept
            raise CheckFailed(
                f"on a second model, new in the same process after the first one's "
                f"{_ranks.STEPS} steps: {failed.hint}"
                + (". Every step of the first model passed, in float32; this one is float64, "
                   "where .float() or .to(torch.float32) of a gradient is a copy. Or does your "
                   "function keep its parameters, or anything else, from the first model it saw "
                   "(a default argument, a global)? Read model.parameters() in every call"
                   if kept else "")
            ) from None  # fmt: skip


def _check_step(steps, step, averages) -> None:
    """One step's gradients on every rank; ``averages``: each gradient's at the step before."""
    world = len(steps)
    if (misplaced := misplaced_divisions_hint(steps, step)) is not None:
        raise CheckFailed(misplaced)
    for rank, s in enumerate(steps):
        if s["params_changed"]:
            raise CheckFailed(
                f"your function changed the parameters {s['params_changed']} (step {step}, "
                f"rank {rank}): average p.grad, not p (or p.data); the optimizer moves p"
            )
    for rank, s in enumerate(steps):
        if s.get("in_backward"):
            raise CheckFailed(
                f"{s['in_backward']} collective(s) ran during backward (step {step}, rank "
                f"{rank}), before your function was called: hooks that an earlier call "
                "registered (p.register_post_accumulate_grad_hook) or another state kept "
                "between calls. Average in the call itself, after backward, and register "
                "nothing on the model: a second backward before the call (gradient "
                "accumulation) would be averaged twice"
            )
        _check_something_sent(s, rank, step)
    # each rank's call all-reduced at least twice its gradients' bytes
    twice = [sent >= 2 * needed for needed, sent in map(needed_and_sent, steps)]
    for name in steps[0]["local"]:
        local = [s["local"][name] for s in steps]
        if _broadcast(local, [s["after"][name] for s in steps]):
            raise CheckFailed(
                f"{name}'s gradient on every rank (step {step}) is rank 0's gradient "
                "(a broadcast): all_reduce instead, then divide by the world size"
            )
        for rank, s in enumerate(steps):
            if local[rank] is None:
                if s["after"][name] is not None:
                    raise CheckFailed(_none_hint(name))
                continue
            if never_sent(s, name) and torch.equal(s["after"][name], local[rank]):
                own = "." not in name  # registered on the model itself, in no child module
                raise CheckFailed(
                    f"{name}'s gradient on rank {rank} (step {step}) was never all-reduced: "
                    "no collective carried it. "
                    + (
                        f"{name} is {_OWN}, in no child module, "
                        "which a loop over model.children() misses: loop over "
                        "model.parameters(). "
                        if own
                        else ""
                    )
                    + late_hint(name, step, averages)
                    + "All-reduce every gradient that is not None, weights and biases alike, "
                    "then divide by the world size"
                )
            after = s["after"][name]
            try:
                _compare_grad(name, after, local, rank, world, step, averages, twice[rank])
            except CheckFailed as failed:  # the values alone: is a collective to blame?
                if "is not the average" not in failed.hint:
                    raise
                if other := not_all_reduce(s["calls"]):
                    raise CheckFailed(f"{failed.hint}: {other}") from None
                grads = _step_grads(steps)
                means = [sum(g) / world for g in grads if all(r is not None for r in g)]
                own = after is not None and after.shape == local[rank].shape
                if own and values_from_elsewhere(after, means):
                    raise CheckFailed(_MISPLACED.format(name=name, rank=rank, step=step)) from None
                raise
        if all(g is not None for g in local):
            averages[name] = sum(local) / world


_MISPLACED = (
    "{name}'s gradient on rank {rank} (step {step}) holds averages, but of other gradients, or "
    "of other places of its own: the flat tensor was split back in another order or at other "
    "offsets (the gradients that are None left out when packing but counted when splitting), "
    "or viewed in another shape (a transpose). Copy each gradient back from where you packed "
    "it, in its own shape: part.view_as(p.grad)"
)


def _step_grads(steps) -> list[list]:
    """Each parameter's gradients on every rank at one step, in the parameters' order."""
    return [[s["local"][name] for s in steps] for name in steps[0]["local"]]


def _check_something_sent(s, rank, step) -> None:
    """A call that left every gradient after the first parameter without one (the unused
    layer) as it was, never sent: a loop that ended there, or a function that does nothing.
    One that changed gradients without a collective is named by what it made of them."""
    names = list(s["local"])
    first = next((i for i, n in enumerate(names) if s["local"][n] is None), len(names))
    later = [n for n in names[first + 1 :] if s["local"][n] is not None]
    kept = {n for n, g in s["local"].items() if g is None or _same(s["after"][n], g)}
    if not later or not all(n in kept and (not s["calls"] or never_sent(s, n)) for n in later):
        return
    # as many all-reduces as gradients, of their shapes, none carrying one: copies reduced
    shapes = collections.Counter(tuple(g.shape) for g in s["local"].values() if g is not None)
    if s["calls"] and not shapes - collections.Counter(tuple(c.shape) for c in s["calls"]):
        dtype = str(s["local"][later[0]].dtype).removeprefix("torch.")
        raise CheckFailed(
            f"your function all-reduced tensors of the gradients' shapes, but not the gradients "
            f"(step {step}, rank {rank}): each was a copy, and the sums never reached p.grad. "
            f"The gradients here are {dtype}: .float(), .to(...) or .clone() of one is a new "
            "tensor. All-reduce p.grad itself, in place, or copy the result back into it"
        )
    none = names[first]
    did = (
        "called no collective and left every gradient as it was"
        if not s["calls"] and len(kept) == len(names)
        else f"left every gradient after {none} as it was"
    )
    raise CheckFailed(
        f"your function {did} (step {step}, rank {rank}). If it loops over "
        f"model.parameters(): {none} has no gradient (its layer is unused), and a loop that "
        "ends there (a `return` or `break` at the first p.grad that is None) averages nothing "
        "after it. Skip such a parameter with `continue` and go on to the next: all-reduce "
        "every other gradient, then divide by the world size"
    )


def _same(after, local) -> bool:
    return after is not None and torch.equal(after, local)


def _broadcast(local, after) -> bool:
    """Whether every rank ends with rank 0's own gradient, which the other ranks did not
    compute (rank 0 alone would look "not averaged", its own gradient kept)."""
    if any(g is None for g in local) or all(torch.equal(g, local[0]) for g in local):
        return False
    return all(
        a is not None and a.shape == local[0].shape and torch.allclose(a, local[0], 1e-5, 1e-7)
        for a in after
    )


def _none_hint(name):
    return (
        f"{name} had no gradient (p.grad is None: it is not used in forward) but has one "
        "after your function: skip parameters whose grad is None"
    )


def _compare_grad(name, got, local, rank, world, step, averages=None, twice=False):
    """``twice``: the call all-reduced at least twice the gradients' bytes."""
    mean, before = sum(local) / world, (averages or {}).get(name)
    if got is not None and got.shape == mean.shape and torch.allclose(got, mean, 1e-5, 1e-7):
        return
    stack = torch.stack(local)
    summed = (
        "summed, not averaged, and every gradient was all-reduced twice: an all-reduce after "
        "the division sums the averages again. All-reduce once, then divide by "
        "dist.get_world_size()"
        if twice
        else "summed, not averaged: divide by dist.get_world_size() after the all_reduce"
    )
    variants = [
        (stack.sum(0), summed),
        (local[rank], "not averaged (still this rank's own gradient): all_reduce p.grad itself, "
         "in place (not p, p.data or a copy), or copy the reduced values back into it"),
        (stack.amax(0), "the maximum over ranks: all_reduce with the default op, SUM, then divide"),
        (stack.amin(0), "the minimum over ranks: all_reduce with the default op, SUM, then divide"),
        (stack.prod(0), "the product over ranks: all_reduce with op SUM, then divide"),
        (mean / world, "divided by the world size twice"),
        (local[rank] / world, "this rank's own gradient divided by the world size: the sum "
         "over the ranks never reached p.grad, as when another tensor is all-reduced (a copy: "
         ".float(), .to(another dtype), .clone(), .contiguous() of a gradient that is not; or "
         "torch.distributed.nn.functional.all_reduce's new tensor). dist.all_reduce(p.grad) "
         "sums p.grad itself, in place"),
        (stack.sum(0) / 2, f"divided by 2, not by the world size ({world} here): divide by "
         "dist.get_world_size()"),
        (local[0], "rank 0's gradient everywhere (a broadcast): all_reduce instead"),
    ]  # fmt: skip
    if before is not None:
        variants.append((before, "the average of the step before: something kept between "
                         "calls (a buffer filled once, a cache) was all-reduced instead of this "
                         "step's gradients"))  # fmt: skip
    what = f"{name}'s gradient on rank {rank} (step {step})"
    # At a later step, the earlier ones were right: point at what outlives a call.
    kept = (
        f"; at step{'s 0 to' if step > 1 else ''} {step - 1} it was right, so look for what "
        "your function keeps between calls (a buffer, a list of p.grad tensors: zero_grad "
        "sets p.grad to None and backward makes new ones)"
        if step
        else ""
    )
    if got is None:
        raise CheckFailed(f"{what} is None after your function: leave p.grad in place")
    for value, hint in variants:
        if got.shape == value.shape and torch.allclose(got, value, 1e-5, 1e-7):
            raise CheckFailed(f"{what} is {hint}" + ("" if value is before else kept))
    err = (got - mean).abs().max().item() if got.shape == mean.shape else float("nan")
    if got.shape == mean.shape and torch.allclose(got, mean, 1e-2, 1e-4):
        raise CheckFailed(
            f"{what} is the average only to about 3 digits (largest difference {err:.3g}): "
            "precision was lost on the way, as when the gradients are sent or copied in a "
            "lower precision (bfloat16, float16). All-reduce them in their own dtype" + kept
        )
    raise CheckFailed(
        f"{what} is not the average over the ranks (largest difference {err:.3g}): each "
        "p.grad must end as the sum over ranks divided by the world size" + kept
    )
