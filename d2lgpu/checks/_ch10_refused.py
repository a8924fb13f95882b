"""What chapter 10's rank jobs refuse while the answer runs, each with its hint:
``10.shard_optimizer``'s (:mod:`._ch10_zero`) PyTorch's own ZeRO-1 built at all and, in
``step()``, parameters sent as pickled objects or gradients clipped
(:func:`refused_in_step`); ``10.allreduce_grads``' (:mod:`._ranks`) gradients clipped
(:func:`clips_refused`): the step a rank takes is no longer the same on every rank, or no
longer what was asked, wherever a clip bites, and no case's gradients are large enough to
show it by their values."""

from __future__ import annotations

from functools import partial

import torch
import torch.distributed as dist

from ._util import RuleBroken

__all__ = ["clips_refused", "empty_share_hint", "refused_in_step", "zero_redundancy_used"]


def zero_redundancy_used(*args, **kwargs):
    raise RuleBroken(
        "your ShardedOptimizer builds torch.distributed.optim.ZeroRedundancyOptimizer: that "
        "is PyTorch's own ZeRO-1, and the exercise is to build it by hand. Give each "
        "parameter an owner, build optimizer_cls over this rank's own, step it, and "
        "broadcast each parameter from its owner"
    )


# the ways to send parameters as objects (all_gather_object of the state has its own hint)
OBJECTS = ("broadcast_object_list", "scatter_object_list")
CLIPS = ("clip_grad_norm_", "clip_grad_value_", "clip_grads_with_norm_")


def object_collective(name, *args, **kwargs):
    raise RuleBroken(
        f"your ShardedOptimizer called dist.{name}: it pickles the tensors, copies them to the "
        "host and back (on NCCL, through the GPU), in two collectives a call, every step. "
        "Broadcast the tensors themselves: dist.broadcast(p.data, src=owner) per parameter, "
        "or one flat buffer per owner"
    )


STEP_CLIP = (
    "your ShardedOptimizer's step() called torch.nn.utils.{name}: the step asked for is the "
    "optimizer's alone, on gradients that arrive averaged, and a clip changes it wherever it "
    "bites; over this rank's own parameters it takes the norm of one share only, so each rank "
    "would clip by a factor of its own, and the ranks' steps would no longer be DDP's. Leave "
    "the gradients as they arrive (a training loop that clips does it over every parameter, "
    "before step())"
)
AVERAGE_CLIP = (
    "your function called torch.nn.utils.{name}: the exercise asks for the average of each "
    "gradient over the ranks and nothing more, and a clip changes the gradients wherever it "
    "bites; before the all-reduce it takes the norm of this rank's local gradients only, so "
    "each rank would clip by a factor of its own and the ranks' averages would no longer be "
    "DDP's. Average only (a training loop that clips does it after the average, over every "
    "parameter)"
)


def _clip(words: str, name: str, *args, **kwargs):
    raise RuleBroken(words.format(name=name))


def clips_refused(words: str) -> list:
    """``patched``'s arguments that make each of torch's gradient clips raise
    :class:`RuleBroken` with ``words`` (``{name}``: the clip's name)."""
    return [
        (torch.nn.utils, name, partial(_clip, words, name))
        for name in CLIPS
        if hasattr(torch.nn.utils, name)
    ]


def refused_in_step() -> list:
    """``patched``'s arguments for ``step()``: object collectives and gradient clips refused.
    Objects sent once, in ``__init__`` (a plan of owners), are no cost a step."""
    return [
        *((dist, name, partial(object_collective, name)) for name in OBJECTS),
        *clips_refused(STEP_CLIP),
    ]


def empty_share_hint(rank, world, error, count=8) -> str:
    """The hint when rank ``rank``'s optimizer_cls raised ``error`` (ValueError: an empty
    parameter list), though ``world`` ranks leave every rank some of the ``count``."""
    why = (
        "is the world size, 2, written in? Give owners over dist.get_world_size() ranks"
        if rank >= 2
        else "the owners are unbalanced: give each parameter to the rank that owns the "
        "fewest bytes so far, and add its bytes to that rank's count"
    )
    return (
        f"rank {rank} of {world} owns no parameter (optimizer_cls raised ValueError: "
        f"{error}), though the model's {count} parameters leave every one of {world} ranks "
        f"some: {why}"
    )
