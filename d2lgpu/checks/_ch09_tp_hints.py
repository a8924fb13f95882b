"""``09.tensor_parallel``'s hints on what a rank keeps and on its parameters' gradients: the
storage its parameters hold (views, another split of the hidden units than ``torch.chunk``'s),
the unsplit MLP's storage kept alive, and parameters that got no gradient.

What it is not: the problem and what each rank runs (:mod:`._ch09_tp_problem`), nor the
order of the checks (:mod:`.ch09_tensor_parallel`).
"""

from __future__ import annotations

from ._ch09_tp_problem import BLOCKS, HIDDEN, WIDTH, WORLD, hidden_share, shard_bytes
from ._util import CheckFailed

__all__ = ["SplitDiffers", "memory_hint", "without_grad_hint"]


class SplitDiffers(CheckFailed):
    """A rank keeps another number of hidden units than ``torch.chunk`` gives it."""


_VIEW = (
    " A slice such as weight[rows] or weight[:, cols] is a view: the whole weight's storage "
    "stays alive. Clone it (weight[a:b].clone()). (.contiguous() copies nothing where the "
    "slice is already contiguous, as fc1's rows are.)"
)


def memory_hint(rank: int, world: int, record: dict) -> CheckFailed | None:
    """What is wrong with the storage rank ``rank`` of ``world`` keeps, or None."""
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
        has, it = ("has", "it gets") if len(frozen) == 1 else ("have", "they get")
        return (
            f"rank {rank}: {', '.join(frozen)} {has} requires_grad=False, so {it} no "
            "gradient and the SGD step leaves it as it was: every shard is trained, fc2's bias "
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
