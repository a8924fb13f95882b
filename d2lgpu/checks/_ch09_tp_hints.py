"""``09.tensor_parallel``'s hints on what a rank keeps and on its parameters' gradients: the
storage its parameters hold (views, another split of the hidden units than ``torch.chunk``'s,
another dtype than float32, Parameters shared between blocks), the unsplit MLP's storage kept
alive, parameters that got no gradient, all-reduces in another dtype, a shard built for another
rank that is not that rank's, and an output that is not the unsplit MLPs'.

What it is not: the problem and what each rank runs (:mod:`._ch09_tp_problem`), nor the
order of the checks (:mod:`.ch09_tensor_parallel`).
"""

from __future__ import annotations

import math

import torch

from ._ch09_tp_problem import (
    ACTIVATIONS,
    BLOCKS,
    HIDDEN,
    WIDTH,
    WORLD,
    data,
    hidden_share,
    make_blocks,
    shard_bytes,
)
from ._kit import close, max_diff
from ._util import CheckFailed

__all__ = [
    "SplitDiffers",
    "memory_hint",
    "LEGACY_HOOK",
    "other_rank_hint",
    "width_hint",
    "wire_hint",
    "without_grad_hint",
    "wrong_output_hint",
]


class SplitDiffers(CheckFailed):
    """A rank keeps another number of hidden units than ``torch.chunk`` gives it."""


_VIEW = (
    " A slice such as weight[rows] or weight[:, cols] is a view: the whole weight's storage "
    "stays alive. Clone it (weight[a:b].clone()). (.contiguous() copies nothing where the "
    "slice is already contiguous, as fc1's rows are.)"
)


def memory_hint(rank: int, world: int, record: dict) -> CheckFailed | None:
    """What is wrong with the storage rank ``rank`` of ``world`` keeps, or None."""
    if record.get("dtypes"):
        return CheckFailed(
            f"rank {rank}'s parameters are {', '.join(record['dtypes'])}, not float32 as the "
            "blocks are: the shards are rounded, so the output and gradients are off the "
            "unsplit MLP's. Keep each shard in float32, the weights' own dtype (clone it, "
            "no .to(...))"
        )
    if record.get("shared_parts"):
        return CheckFailed(
            f"rank {rank}'s ParallelMLPs of two blocks share Parameters (the same storage): "
            "something kept by the class or a global (a cache keyed by the shapes) hands a "
            "second block of the same shapes the first block's shards. Clone each block's own "
            "weights in __init__, in every instance"
        )
    held, share = record["held"], shard_bytes(world, rank)
    whole = BLOCKS * 4 * (2 * WIDTH * HIDDEN + HIDDEN + WIDTH)
    if held > share:
        said = (
            f"rank {rank} of {world}'s parameters hold {held} bytes of storage; its shards are "
            f"{share} (the whole MLPs: {whole}). Keep fc1's rows for this rank's hidden units "
            "(and their biases), fc2's matching columns, and fc2's bias."
        )
        if record.get("views"):
            return CheckFailed(said + _VIEW)
        units = (held / (4 * BLOCKS) - WIDTH) / (2 * WIDTH + 1)
        if world == WORLD or not units.is_integer():
            return CheckFailed(said)
        mine = hidden_share(rank, world)
        shares = ", ".join(str(hidden_share(r, world)) for r in range(world))
        said += (
            f" That is {int(units)} hidden units per block, where "
            f"torch.chunk(torch.arange({HIDDEN}), {world})[{rank}] gives it {mine} ({shares})."
        )
        if rank < WORLD and int(units) == hidden_share(rank, WORLD):  # chunk(h, 2)'s
            said += f" Is the number of ranks, {WORLD}, written in somewhere?"
        else:
            said += (
                " A split of your own (torch.tensor_split, h // world steps, every world-th unit)?"
            )
        return SplitDiffers(
            said + " Split with the world you are given: torch.chunk(torch.arange(h), world)[rank]"
        )
    if held < share and record.get("buffers"):
        return CheckFailed(
            f"rank {rank} of {world}'s parameters hold {held} bytes, its shards {share}: it "
            f"keeps {', '.join(record['buffers'][:2])} as buffers (register_buffer), which "
            "module.parameters() does not list, so an optimizer never updates them. Make "
            "every shard, the biases included, an nn.Parameter"
        )
    kept = record.get("kept") or {}
    if kept.get("shared"):
        return CheckFailed(
            f"rank {rank}'s parameters share storage with the unsplit MLP's "
            f"{', '.join(kept['shared'])}: nn.Parameter(t.detach()) without .clone() is the "
            "same memory, so a step on the shard changes the unsplit MLP too. Copy every "
            "shard, fc2's bias included: fc2.bias.detach().clone()"
        )
    if kept.get("elsewhere"):
        return CheckFailed(
            f"rank {rank} keeps the unsplit MLP's {', '.join(kept['elsewhere'])} alive after "
            "ParallelMLP(...) returned, though its parameters hold only its shards: something "
            "else in it refers to the MLP (an attribute, a list, or a closure such as "
            "`lambda t: mlp[1](t)`), so the rank holds the whole MLP's memory. Keep the cloned "
            "shards and the activation module itself (self.act = mlp[1]), nothing else of mlp"
        )
    return None


def without_grad_hint(rank: int, without: list) -> str:
    """The hint for the parameters, ``(name, requires_grad)``, that got no gradient."""
    frozen = [name for name, requires in without if not requires]
    if frozen:
        has, it, them, was = ("has", "it gets", "it", "it was") if len(frozen) == 1 else (
            "have", "they get", "them", "they were"
        )  # fmt: skip
        return (
            f"rank {rank}: {', '.join(frozen)} {has} requires_grad=False, so {it} no "
            f"gradient and the SGD step leaves {them} as {was}: every shard is trained, fc2's bias "
            "(the same on every rank) too. Keep nn.Parameter's default requires_grad=True"
        )
    names = ", ".join(name for name, _ in without)
    return (
        f"rank {rank}: {len(without)} of your parameters got no gradient ({names}): they "
        "are not in the output's graph on this rank. Does forward use them on every rank "
        "(fc2's bias added once, after the sum, by every rank)? Else autograd does not see "
        "through dist.all_reduce (nor through anything under no_grad): wrap each all-reduce "
        "in a torch.autograd.Function whose backward says what the gradient is"
    )


def wire_hint(rank: int, calls, where: str) -> str | None:
    """The hint for an all-reduce of ``calls`` (in ``where``, "forward" or "backward") that
    sent another dtype than float32's 4 bytes an element, or None."""
    for c in calls:
        size = c.nbytes / max(1, math.prod(c.shape))
        if size == 4 or not c.nbytes:  # an empty tensor shows no dtype in its bytes
            continue
        if size > 4:
            what = (
                f"{size:g} bytes an element, not float32's 4: an upcast (float64) sends "
                f"{size / 4:g} times the bytes, for every block at every step. float32's sum "
                "is what the unsplit MLP computes too"
            )
        else:
            what = (
                f"{size:g} bytes an element, not float32's 4: a cast to float16 or bfloat16 "
                "rounds the sum, so the output is off the unsplit MLP's"
            )
        return (
            f"rank {rank}'s all-reduce in {where} sent a tensor of shape {tuple(c.shape)} in "
            f"{c.nbytes} bytes, {what}. All-reduce the shares in their own dtype, float32"
        )
    return None


def other_rank_hint(rank: int, world: int, held: str = "own") -> str:
    """The hint when ``ParallelMLP(mlp, other, world)`` built on rank ``rank`` did not hold
    rank ``other``'s shard: it held rank ``rank``'s (``held`` ``"own"``), or neither."""
    other = (rank + 1) % world
    said = (
        f"ParallelMLP(mlp, {other}, {world}) built on rank {rank} does not hold rank "
        f"{other}'s shards (its hidden units torch.chunk(torch.arange(h), {world})[{other}])"
    )
    if held != "own":
        return (
            f"{said}, nor rank {rank}'s: its hidden units are a split of your own (every "
            "world-th unit, rank::world, or other bounds). The output is right with any split, "
            "but the exercise gives rank r torch.chunk's block of units, "
            "torch.chunk(torch.arange(h), world)[r], so that any process builds the same shards"
        )
    return (
        f"{said}: take the rank and the world from the arguments, not from dist.get_rank() or "
        "dist.get_world_size() (a process may build another rank's share, to check or save it)"
    )


def wrong_output_hint(rank, world, out, ref, tolerance) -> str:
    """The hint for rank ``rank``'s output ``out`` that is not ``ref``, the unsplit MLPs'."""
    blocks = make_blocks()
    x, _ = data()
    with torch.no_grad():
        for b in blocks:
            b[2].bias *= world  # every rank's bias, summed by the all-reduce
        twice = x
        for b in blocks:
            twice = b(twice)
    if close(out, twice, tolerance):
        return (
            f"rank {rank}'s output has fc2's bias {world} times: each rank added it before the "
            "all-reduce summed them. Add it once, after the sum"
        )
    for act in ACTIVATIONS:
        with torch.no_grad():
            same = x
            for b in make_blocks(activations=[act] * BLOCKS):
                same = b(same)
        if close(out, same, tolerance):
            return (
                f"rank {rank}'s output is that of blocks that all use {act()}, but the "
                f"blocks' activations differ ({', '.join(str(a()) for a in ACTIVATIONS)}): "
                "use the mlp's own, mlp[1], not one of your choice"
            )
    anew = [type(act()) for act in ACTIVATIONS]  # each made again, with its defaults
    with torch.no_grad():
        same = x
        for b in make_blocks(activations=anew):
            same = b(same)
    if close(out, same, tolerance):
        return (
            f"rank {rank}'s output is that of activations made anew with their default "
            f"arguments ({anew[1]()} where the mlp has {ACTIVATIONS[1]()}): use the mlp's "
            "own module, mlp[1], not type(mlp[1])()"
        )
    return (
        f"rank {rank}'s output differs from the unsplit MLPs' by up to "
        f"{max_diff(out, ref):.3g}: does each rank keep fc1's rows and fc2's "
        "columns for the same hidden units (torch.chunk(..., world)[rank] for both)?"
    )


def width_hint(rank: int, world: int, saved: list[tuple[int, ...]]) -> str | None:
    """The hint when rank ``rank``'s forward kept tensors of the whole hidden width for
    backward (``saved``: their shapes) while it keeps fewer hidden units, or None."""
    share = hidden_share(rank, world)
    wide = sorted({s for s in saved if HIDDEN in s})
    if share == HIDDEN or not wide:
        return None
    return (
        f"rank {rank}'s forward kept tensors of the whole hidden width for backward (shapes "
        f"{', '.join(map(str, wide))}): {HIDDEN} hidden units, where the rank keeps {share}. "
        "Its shards padded back to the unsplit shapes with zeros (new_zeros(..., h)."
        "index_copy(...), F.pad) give the right values, but every rank then does the whole "
        "fc2 product and keeps a whole hidden activation: the work and the activations no "
        "longer shrink as 1 / world. Multiply by the shards as they are: this rank's hidden "
        f"activation is {share} units wide, and its product with fc2's matching columns is "
        "its share of the output"
    )


LEGACY_HOOK = (
    ". Your ParallelMLP registers a module hook with register_backward_hook, the old kind: "
    "its grad_input holds the gradients of the inputs of forward's last operation (such as "
    "the bias add), not x's. Use register_full_backward_hook, whose grad_input is x's gradient, or a "
    "hook on a view of x made in forward (x = x.view_as(x); x.register_hook(...))"
)


def input_grad_hint(rank: int, world: int, got, want, tolerance, legacy: bool) -> str:
    """The hint for rank ``rank``'s gradient of the input, ``got``, unlike the unsplit model's
    ``want``: a whole number of times too small or too large is said, and where it comes from;
    ``legacy``: the answer registers the old module backward hook."""
    hint = (
        f"rank {rank}'s gradient of the input differs from the unsplit model's: in backward, "
        "sum the column-parallel layer's input gradient over the ranks, once"
    )
    if legacy:
        return hint + LEGACY_HOOK
    through = (
        "The backward of the forward's sum (the all-reduce after the row-parallel layer) "
        "passes the output's gradient through unchanged: it is already the same on every rank"
    )
    if close(got * world, want, tolerance):
        return f"{hint}. It is {world} times too small: something in backward divides by the world size. {through}"
    if close(got, want * world, tolerance):
        return f"{hint}. It is {world} times too large: a gradient is summed twice. {through}"
    return f"{hint}. {through}, so an all-reduce there (torch.distributed.nn.functional.all_reduce has one) or a division by the world size makes it wrong"
