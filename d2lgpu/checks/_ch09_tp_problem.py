"""``09.tensor_parallel``'s problem and what each rank runs: the blocks to split (an MLP
``Linear(WIDTH, HIDDEN)``, an activation, ``Linear(HIDDEN, WIDTH)``, GELU in the first and
Tanh in the second), their input, each rank's share of the hidden units, and the record a
rank sends back (the storage its parameters hold, the output, the all-reduces of forward
and backward, the input's gradient, the output after one SGD step).

What it is not: the rules and hints, :mod:`.ch09_tensor_parallel`.
"""

from __future__ import annotations

import torch
from torch import nn

from ..ranks import count_all_reduces
from ._ranks import learner_reply

__all__ = [
    "ACTIVATIONS",
    "BLOCKS",
    "HIDDEN",
    "LR",
    "WIDTH",
    "WORLD",
    "data",
    "hidden_share",
    "make_blocks",
    "rank_work",
    "shard_bytes",
]

WORLD, WIDTH, HIDDEN, ROWS, LR = 2, 6, 10, 5, 0.5


# each block's activation: not always the same, so that one written in is seen
ACTIVATIONS = (nn.GELU, nn.Tanh)
BLOCKS = len(ACTIVATIONS)


def make_blocks(seed: int = 0, activations=ACTIVATIONS) -> list[nn.Sequential]:
    """One MLP ``Linear(WIDTH, HIDDEN)``, an activation, ``Linear(HIDDEN, WIDTH)`` per
    activation: ``BLOCKS`` of them, GELU in the first, Tanh in the second."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return [
            nn.Sequential(nn.Linear(WIDTH, HIDDEN), act(), nn.Linear(HIDDEN, WIDTH))
            for act in activations
        ]


def data():
    gen = torch.Generator().manual_seed(7)
    return torch.randn(ROWS, WIDTH, generator=gen), torch.randn(ROWS, WIDTH, generator=gen)


def hidden_share(rank: int, world: int = WORLD) -> int:
    """How many hidden units rank ``rank`` of ``world`` keeps (``torch.chunk``'s share)."""
    return len(torch.chunk(torch.arange(HIDDEN), world)[rank])


def shard_bytes(world: int = WORLD, rank: int = 0) -> int:
    """The bytes one rank's shards take: its rows of fc1 and fc1's bias, its columns of
    fc2, and fc2's bias (whole), per block."""
    units = hidden_share(rank, world)
    per_block = units * WIDTH + units + WIDTH * units + WIDTH
    return BLOCKS * per_block * 4


def rank_work(ParallelMLP):
    """What each rank runs: the answer on its share, ``("ok", its record)``, or the error
    it raised as :func:`._ranks.learner_reply` gives it."""

    def work(rank, world):
        try:
            return ("ok", _run(ParallelMLP, rank, world))
        except Exception as error:  # noqa: BLE001 (the learner's, reported with its line)
            return learner_reply(error)

    return work


def _run(ParallelMLP, rank, world):
    blocks = make_blocks()
    parts = [ParallelMLP(b, rank, world) for b in blocks]
    for part in parts:
        if not isinstance(part, nn.Module):
            raise TypeError(f"ParallelMLP(...) must make an nn.Module, got {type(part).__name__}")
    params = [p for part in parts for p in part.parameters()]
    storages = {(p.untyped_storage().data_ptr(), p.untyped_storage().nbytes()) for p in params}
    held = sum(n for _, n in storages)
    whole = {id(p) for b in blocks for p in b.parameters()}
    x, weight = data()
    x = x.clone().requires_grad_()
    with count_all_reduces() as forward:
        out = x
        for part in parts:
            out = part(out)
    if not isinstance(out, torch.Tensor):
        raise TypeError(f"forward must return a tensor, got {type(out).__name__}")
    if not out.requires_grad:
        return {"held": held, "out": out.detach(), "no_grad": True, "forward": forward.calls}
    with count_all_reduces() as backward:
        (out * weight).sum().backward()
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= LR * p.grad
        after = x.detach()
        for part in parts:
            after = part(after)
    return {
        "held": held,
        "shares_whole": any(id(p) in whole for p in params),
        "without_grad": sum(p.grad is None for p in params),
        "out": out.detach(),
        "x_grad": x.grad,
        "after": after.detach(),
        "forward": forward.calls,
        "backward": backward.calls,
        "no_grad": False,
    }
