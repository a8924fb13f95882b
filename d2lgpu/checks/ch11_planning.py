"""Chapter 11's checker: ``11.memory``, one rank's bytes predicted, against the tracker's.

The learner writes ``predict(shapes, plan, world_size)``: the bytes of parameters,
gradients and Adam's state that rank 0 holds after a step of fp32 Adam, for a model whose
parameter tensors have ``shapes`` (in the module's order), under ``"ddp"``, ``"zero1"``
or ``"fsdp2"``. The checker builds such a model, runs it through
:func:`d2lgpu.scale.per_rank_bytes` (the fake process group and PyTorch's memory tracker,
as chapter 11 does), and compares byte for byte. Its cases are chosen so that each
shortcut shows: a tensor too large for ZeRO-1 to deal evenly, a first tensor smaller than
a later one (ZeroRedundancyOptimizer sorts by size), a wide tensor of few rows before a
tall one of fewer elements, and vectors that pile up on one rank (it sorts and balances by
elements, not rows nor bytes), first dimensions that ``world_size`` does not divide (FSDP2
pads its shards), three world sizes, and a large model whose bytes on a rank a 32-bit count
does not hold. The shapes are handed over in a fresh list each call,
which must come back unchanged.
"""

from __future__ import annotations

import functools
import math

import torch
from torch import nn

from ..scale import per_rank_bytes, zero1_state_bytes
from ._ch11_kept import kept_hint as _kept_hint
from ._ch11_kept import nothing_kept
from ._util import CheckFailed

__all__ = ["check_memory"]

PLANS = ("ddp", "zero1", "fsdp2")
KINDS = ("params", "grads", "optimizer")
# (shapes, world sizes): a big embedding-like tensor after a small one; first dimensions
# 8 divides and does not; a vector among matrices
CASES = (
    # on 2 ranks rank 0 takes the (40,) too: a deal kept from 8 ranks (its largest alone) shows
    (((6, 16), (96, 16), (40, 16), (40,), (24, 16), (10, 16), (16, 16)), (8, 3, 2)),
    (((64, 8), (64, 8), (5, 8), (3,)), (8,)),
    # rank 0 takes the largest tensor, rank 1 the next two and so holds more than rank 0
    (((6, 4), (10, 4), (6, 4)), (2,)),
    # by elements the wide (2, 24) comes first, by rows the tall (16, 2); the four (1,)s pile
    # on rank 1 until it holds as many elements as rank 0, though 16 bytes more (the counters)
    (((2, 24), (16, 2), (24,), (4,), (1,), (1,), (1,), (1,)), (2,)),
    (((8, 2, 3, 3), (4, 3, 5), (12, 4)), (3,)),  # a row: every dimension after the first
    # Llama 3 8B's embedding, a norm, an MLP's two and a key's projection: 2.6 GB on a rank,
    # more than a 32-bit count holds (measured under FakeTensorMode: no data)
    (((128256, 4096), (4096,), (14336, 4096), (4096, 14336), (1024, 4096)), (8,)),
)


class _Holder(nn.Module):
    """One parameter of a given shape, used in forward so that it gets a gradient."""

    def __init__(self, shape):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(shape))

    def forward(self, x):
        return x * self.weight.mean()


class _Shapes(nn.Sequential):
    """A model whose parameters have ``shapes``, each in its own child (an FSDP2 unit)."""

    def __init__(self, shapes):
        super().__init__(*[_Holder(s) for s in shapes])

    def example_input(self):
        return torch.ones(2, device=self[0].weight.device)


@functools.cache
def measured(shapes: tuple, plan: str, world_size: int) -> dict[str, int]:
    """Rank 0's bytes as the tracker measures them (cached: the same cases for every answer).

    The cache also lets a mutation run reach the rules below: each mutant runs in a copy of
    the process that measured first, and torch refuses a backward in a copy forked after
    one ran ("Unable to handle autograd's threading in combination with fork-based
    multiprocessing")."""
    got = per_rank_bytes(lambda: _Shapes(shapes), plan, world_size)
    return {kind: got[kind] for kind in KINDS}


def _zero1_rank0(shapes, world_size, *, by_rows=False, by_bytes=False) -> int:
    """Rank 0's Adam bytes under ZeRO-1's deal, or under a deal sorted by rows or balanced by bytes."""
    order = sorted(shapes, key=lambda s: s[0] if by_rows else math.prod(s), reverse=True)
    held, mine = [0] * world_size, []
    for shape in order:
        rank = held.index(min(held))
        held[rank] += 8 * math.prod(shape) + 4 if by_bytes else math.prod(shape)
        mine += [math.prod(shape)] if rank == 0 else []
    return 8 * sum(mine) + 4 * len(mine)


def _near(got, target, slack) -> bool:
    return isinstance(got, int | float) and abs(got - target) <= slack


def _mistake(shapes, plan, world_size, kind, got, want) -> str:
    """The hint for one wrong number: the shortcut it matches, or the two numbers."""
    n_tensors, total = len(shapes), sum(map(math.prod, shapes))
    where = f"{plan} on {world_size} ranks, shapes {list(shapes)}"
    # 500 times too few bytes or more: a unit (KB, MB, MiB, rounded or not), not a miscount
    # (elements instead of bytes, or one rank's share of 8, are at most 64 times too few)
    if got != want and (got - want) % 2**32 == 0:
        return (
            f"{where}: rank 0 holds {want:,} bytes of {kind}, you predicted {got:,}, that "
            "number wrapped around at 2**32: counted in a 32-bit integer (NumPy's int32, "
            "torch.int32), which holds at most 2,147,483,647. Count in Python ints"
        )
    if 0 < got <= want / 500:
        return (
            f"{where}: rank 0 holds {want:,} bytes of {kind}, you predicted {got!r}: return "
            "bytes, not KB, MiB or MB"
        )
    largest = {8 * math.prod(s) for s in shapes} | {
        8 * math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes
    }
    if kind == "optimizer" and got - want in largest:
        return (
            f"{where}: Adam's state is {want:,} bytes, you predicted {got:,}, {got - want:,} "
            "more: the moments of one tensor again, what the tracker files as Optstate at the "
            "peak, inside optimizer.step(), where Adam's update makes temporaries about the "
            "size of the largest tensor's moments. Predict what a rank holds after the step"
        )
    if plan == "zero1" and kind == "optimizer":  # a deal by another order or load
        if got == _zero1_rank0(shapes, world_size, by_rows=True):
            return (
                f"{where}: rank 0 holds {want:,} bytes of Adam's state, you predicted {got!r}, "
                "what a deal sorted by rows gives: ZeroRedundancyOptimizer sorts the tensors "
                "by their number of elements (math.prod(shape)), largest first, not by their "
                "first dimension"
            )
        if got == _zero1_rank0(shapes, world_size, by_bytes=True):
            return (
                f"{where}: rank 0 holds {want:,} bytes of Adam's state, you predicted {got!r}, "
                "what balancing the ranks' bytes (step counters included) gives: "
                "ZeroRedundancyOptimizer gives each tensor to the rank holding the fewest "
                "elements so far, counting elements only"
            )
    if kind == "optimizer" and plan != "zero1" and got - want == 4 * n_tensors:
        return (
            f"{where}: Adam's state is {want:,} bytes, you predicted {got:,}, 4 bytes more "
            "per tensor: Adam's step counter is a float32 scalar, 4 bytes (not an int64's "
            "8), one for every tensor it updates, besides the two moments"
        )
    if kind == "optimizer" and 0 < want - got <= 4 * n_tensors and (want - got) % 4 == 0:
        return (
            f"{where}: Adam's state is {want:,} bytes, you predicted {got:,}: Adam keeps a "
            "4-byte step counter (a float32 scalar) for every tensor it updates, besides the "
            "two moments"
        )
    if plan in ("ddp", "zero1") and kind in ("params", "grads"):
        return (
            f"{where}: {kind} are {4 * total:,} bytes, you predicted {got!r}: DDP and ZeRO-1 "
            "keep every parameter and every gradient whole (4 bytes each) on every rank"
        )
    if plan == "ddp":
        return (
            f"{where}: Adam's state is {want:,} bytes, you predicted {got!r}: under DDP every "
            "rank keeps both moments of every parameter and a step counter per tensor"
        )
    if plan == "zero1":
        held = zero1_state_bytes(lambda: _Shapes(shapes), world_size)  # ZeRO-1's own deal
        if got == max(held) != want:
            return (
                f"{where}: rank 0 holds {want:,} bytes of Adam's state, you predicted {got!r}, "
                f"what rank {held.index(got)}, the rank that holds the most, holds: predict "
                "rank 0's bytes, the rank that takes the largest tensor first, whatever the "
                "others hold"
            )
        if 0 < got - want <= 4 * n_tensors and (got - want) % 4 == 0:
            return (
                f"{where}: rank 0 holds {want:,} bytes of Adam's state, you predicted {got!r}, "
                f"{got - want} bytes more: a step counter for tensors rank 0 does not own. "
                "ZeroRedundancyOptimizer's Adam on rank 0 updates only the tensors dealt to "
                "it, and keeps 4 bytes of step counter for each of those"
            )
        if _near(got, 8 * total / world_size, 4 * n_tensors):
            return (
                f"{where}: rank 0 holds {want:,} bytes of Adam's state, you predicted {got!r}, "
                "an even split: ZeroRedundancyOptimizer gives each rank whole tensors, not "
                "an N-th of each"
            )
        return (
            f"{where}: rank 0 holds {want:,} bytes of Adam's state, you predicted {got!r}: "
            "ZeroRedundancyOptimizer sorts the tensors by size, largest first (ties in the "
            "module's order), and gives each to the rank holding the fewest elements so far "
            "(the lowest rank on a tie); rank 0 keeps 8 bytes per element and 4 per tensor "
            "it owns"
        )
    per = 8 if kind == "optimizer" else 4
    what = "Adam's state" if per == 8 else kind
    if _near(got, per * total, 4 * n_tensors):
        return (
            f"{where}: rank 0 holds {want:,} bytes of {kind}, you predicted {got!r}, the whole "
            f"model's: FSDP2 shards {what} too"
        )
    if _near(got, per * total / world_size, 4 * n_tensors):
        return (
            f"{where}: rank 0 holds {want:,} bytes of {kind}, you predicted {got!r}, an exact "
            "N-th: FSDP2 cuts each tensor along its first dimension into shards of "
            "ceil(rows / N) rows, padded, so rank 0 holds a full shard of every tensor"
        )
    floor = sum((s[0] // world_size) * math.prod(s[1:]) for s in shapes)
    if _near(got, per * floor, 4 * n_tensors):
        return (
            f"{where}: rank 0 holds {want:,} bytes of {kind}, you predicted {got!r}, shards of "
            "rows // N rows (rounded down): FSDP2 cuts each tensor along its first dimension "
            "into shards of ceil(rows / N) rows, padding the last ones, so rank 0 holds "
            "ceil(rows / N) rows of every tensor"
        )
    vectors_whole = sum(
        math.ceil(s[0] / world_size) * math.prod(s[1:]) if len(s) > 1 else s[0] for s in shapes
    )
    if any(len(s) == 1 and s[0] > 1 for s in shapes) and _near(
        got, per * vectors_whole, 4 * n_tensors
    ):
        return (
            f"{where}: rank 0 holds {want:,} bytes of {kind}, you predicted {got!r}, with the "
            "1-D tensors (norm weights, biases) kept whole: FSDP2 shards every tensor along "
            "its first dimension, vectors too, into ceil(rows / N) rows, padded"
        )
    by_element = sum(math.ceil(math.prod(s) / world_size) for s in shapes)
    if _near(got, per * by_element, 4 * n_tensors):
        return (
            f"{where}: rank 0 holds {want:,} bytes of {kind}, you predicted {got!r}, shards of "
            "ceil(numel / N) elements: FSDP2 cuts each tensor along its first dimension, into "
            "shards of ceil(rows / N) whole rows (padded), not into N-ths of its elements"
        )
    second = sum(math.ceil(s[0] / world_size) * (s[1] if len(s) > 1 else 1) for s in shapes)
    return (
        f"{where}: rank 0 holds {want:,} bytes of {kind}, you predicted {got!r}: FSDP2 cuts "
        "each tensor along its first dimension into shards of ceil(rows / N) rows (the last "
        "ones padded), and shards parameters, gradients and Adam's moments alike"
        + (
            "; a row of a tensor of 3 or more dimensions holds every dimension after the first "
            "(math.prod(shape[1:]) elements), not shape[1]"
            if _near(got, per * second, 4 * n_tensors) and any(len(s) > 2 for s in shapes)
            else ""
        )
    )


def check_memory(answer, passed: list[str]) -> None:
    """``11.memory``: rank 0's bytes under DDP, ZeRO-1 and FSDP2, against the tracker's."""
    predict = answer
    if not callable(predict):
        raise CheckFailed(f"the answer must be the function predict, got {predict!r}")
    history: list[tuple[str, dict, dict, tuple]] = []  # the call, its result, a copy, shapes
    lists: list[list] = []  # every list given, kept: no id is reused (a cache keyed by id)
    for shapes, worlds in CASES:
        for world_size in worlds:
            for plan in PLANS:
                lists.append(given := [tuple(s) for s in shapes])
                got = predict(given, plan, world_size)
                call = f"predict({list(shapes)}, {plan!r}, {world_size})"
                if given != list(shapes):
                    raise CheckFailed(
                        f"predict(shapes, {plan!r}, {world_size}) changed the list of shapes it "
                        f"was given, from {list(shapes)} to {given!r}: the caller's list is the "
                        "module's order. Work on a copy (sorted(shapes), not shapes.sort())"
                    )
                if not isinstance(got, dict) or set(got) != set(KINDS):
                    raise CheckFailed(
                        f"predict(..., {plan!r}, {world_size}) returned {got!r}: it must "
                        f"return a dict with the keys {', '.join(map(repr, KINDS))}"
                    )
                want = measured(shapes, plan, world_size)
                for kind in KINDS:
                    value = got[kind]
                    if isinstance(value, bool) or not isinstance(value, int | float):
                        raise CheckFailed(
                            f"predict(..., {plan!r}, {world_size})[{kind!r}] is {value!r}: each "
                            "value must be a number of bytes (an int, or a float)"
                        )
                    if value != want[kind]:
                        _kept_hint(predict, call, got, history, (shapes, plan, world_size))
                        raise CheckFailed(
                            _mistake(shapes, plan, world_size, kind, value, want[kind])
                        )
                history.append((call, got, dict(got), shapes))
            passed.append(
                f"{len(shapes)} tensors on {world_size} ranks: parameters, gradients and Adam's "
                "state under DDP, ZeRO-1 and FSDP2, as the tracker measures them"
            )
    changed = next(((c, kept, got) for c, got, kept, _ in history if dict(got) != kept), None)
    if changed:
        raise CheckFailed(
            f"the dict {changed[0]} returned, {changed[1]}, holds {dict(changed[2])} after later "
            "calls: every call refills the same dict (one made once, at module level or as a "
            "default argument), so a result the caller kept changes under it. Return a new dict "
            "in every call"
        )
    nothing_kept(predict, CASES[0][0], CASES[1][0], measured)
    passed.append(
        "called again on the same list holding other shapes, and twice in a row with the same "
        "plan and ranks: each call computed from the shapes it was given"
    )
