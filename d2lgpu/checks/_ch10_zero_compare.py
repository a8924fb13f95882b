"""``10.shard_optimizer``'s comparison with DDP (:mod:`.ch10_ddp_by_hand`): the parameters
each rank holds after each step, the same on every rank and DDP with Adam's (one process,
:func:`._ch10_zero.zero_reference`); where they differ, the mistake they show: values sent
to the wrong parameters, never received or sent before the step, Adam's state lost or built
with other keyword arguments, a buffer of a narrower dtype."""

from __future__ import annotations

import math

import torch

from ._ch10_by_hand import STEPS
from ._ch10_zero import ADAM_KWARGS, PLAIN, Net, param_bytes, zero_net, zero_reference
from ._ch10_zero_rules import reduces_named
from ._util import CheckFailed

__all__ = ["compare_zero"]

# the dtypes narrower than the parameters' that a buffer may have (the parameters in float32,
# or in float64: torch.zeros(n) and torch.empty(n) make float32)
_NARROWER = ("bfloat16, float16", "float32, as torch.zeros(n) and torch.empty(n) make, or bfloat16")


def _kwargs_hint(got, world, step, i, net, atol) -> str | None:
    """The hint when parameter ``i`` is what Adam with other keyword arguments gives."""
    given = ADAM_KWARGS[world]
    lr = given.get("lr", 1e-3)  # Adam's default where the case passes none
    for kwargs, what in (
        ({}, "Adam's defaults: none of the keyword arguments were passed on"),
        ({"lr": lr}, "Adam with lr alone: the other keyword arguments were dropped"),
        # (lr divided by the world size is also what parameters averaged over the ranks,
        # not broadcast from their owner, give: left to the general hint)
        ({**given, "lr": lr * world}, f"Adam with lr times the world size ({world}): "
         "the gradients reach step() averaged over the ranks already, so the learning rate is "
         "the one given, whatever the number of ranks"),
        *(
            (other, f"Adam with {other}, the keyword arguments of another case: values "
             "written in")
            for w, other in ADAM_KWARGS.items()
            if w != world
        ),
    ):  # fmt: skip
        other = zero_reference(world, kwargs=kwargs, net=net)[step][i]
        if torch.allclose(got, other, rtol=0, atol=atol):
            return (
                f"parameter {i} after step {step} ({world} ranks) is what {what}. This case "
                f"passes {given}: build optimizer_cls(own_params, **kwargs) with the kwargs "
                "ShardedOptimizer received"
            )
    return None


def compare_zero(records, world, net: Net = PLAIN):
    """The parameters of ``records`` (a run on ``world`` ranks of ``net``'s model) after each
    step: the same on every rank, and DDP with Adam's, within 1e-6 in float32 (1e-12 in
    float64, where a buffer in float32 rounds them by about 1e-9)."""
    initial = list(zero_net(net).parameters())
    ref = zero_reference(world, net=net)
    fresh = zero_reference(world, keep_state=False, net=net)
    atol, needed = (1e-6 if net.itemsize <= 4 else 1e-12), param_bytes(net)
    within = "1e-6" if net.itemsize <= 4 else "1e-12"
    for step in range(STEPS):
        first = records[0]["params"][step]
        for rank, record in enumerate(records[1:], 1):
            _moved_hint(first, record["params"][step], rank, step, world)
            mine = record["params"][step]
            if any(not torch.equal(a, b) for a, b in zip(first, mine, strict=True)):
                _disagree_hint(records, step, world)
            for i, (a, b) in enumerate(zip(first, record["params"][step], strict=True)):
                sent, after = record["sent"][step]
                if not torch.equal(a, b) and sent >= needed and _shuffled(first, record, step):
                    raise CheckFailed(
                        f"after step {step} rank {rank}'s parameter {i} differs from rank 0's "
                        f"({world} ranks), though it holds every value rank 0 holds, in other "
                        "places: a flat buffer packed in one order and unpacked in another (by "
                        "size, by owner) copies each slice into another parameter. Pack and "
                        "unpack in the same order, the order of params"
                    )
                if not torch.equal(a, b) and sent >= needed:
                    raise CheckFailed(
                        f"after step {step} rank {rank}'s parameter {i} differs from rank 0's "
                        f"({world} ranks), though step() sent {sent} bytes, every parameter's"
                        + (": what a rank receives never reached its parameters. Broadcast "
                           "p.data itself, or, for a flat buffer, copy it back into the "
                           "parameters after the broadcast" if after >= needed else
                           ", before the optimizer stepped: the others received the values "
                           "from before the step. Step first, then broadcast")
                    )  # fmt: skip
                if not torch.equal(a, b):
                    raise CheckFailed(
                        f"after step {step} rank {rank}'s parameter {i} differs from rank 0's "
                        f"({world} ranks): after the sharded step broadcast every parameter "
                        "from the rank that owns it (dist.broadcast(p.data, src=owner)), so "
                        "that all ranks hold the same parameters"
                    )
        for i, (got, want) in enumerate(zip(first, ref[step], strict=True)):
            if torch.allclose(got, want, rtol=0, atol=atol):
                continue
            _disagree_hint(records, step, world)
            _late_hint(records, step, i, net, initial[i].detach(), atol)
            if step == 0 and torch.equal(got, initial[i].detach()):
                raise CheckFailed(
                    f"parameter {i} never changed in step 0 ({world} ranks): some rank must own "
                    "it, step it, and broadcast it from that rank (src=its owner, not rank 0)"
                )
            if torch.allclose(got, fresh[step][i], rtol=0, atol=atol):
                raise CheckFailed(
                    f"parameter {i} after step {step} is what a new Adam would give: Adam's "
                    "state (its moments) was lost between steps. Build each rank's optimizer "
                    "once, in __init__, and keep it"
                )
            hint = _kwargs_hint(got, world, step, i, net, atol)
            if hint is not None:
                raise CheckFailed(hint)
            err = (got - want).abs().max().item()
            calls = records[0]["calls"][step]
            sent, elements = sum(c.nbytes for c in calls), sum(math.prod(c.shape) for c in calls)
            if 0 < sent < net.itemsize * elements:
                raise CheckFailed(
                    f"parameter {i} after step {step} ({world} ranks) differs from DDP with Adam "
                    f"by {err:.3g}, and step() sent {sent} bytes for {elements} elements, fewer "
                    f"than {net.name}'s {net.itemsize} each: buffers of a narrower dtype "
                    f"({_NARROWER[net.itemsize > 4]}) round every parameter they carry. Build "
                    "each flat buffer in the parameters' dtype (torch.cat of "
                    "p.detach().reshape(-1))"
                )
            reduces_named([c for c in calls if c.op in (None, "SUM")], 0, step)  # summed again
            if _all_there(first, ref[step], atol):
                raise CheckFailed(
                    f"parameter {i} after step {step} ({world} ranks) differs from DDP with "
                    "Adam, though the parameters hold every value DDP's hold, in other places: "
                    "a flat buffer packed in one order (largest first, say) and unpacked in "
                    "another copies each slice into another parameter. Pack and unpack in the "
                    "same order, the order of params"
                )
            raise CheckFailed(
                f"parameter {i} after step {step} ({world} ranks) differs from DDP with Adam by "
                f"{err:.3g} (more than {within}): each parameter must be stepped by exactly one "
                "rank, with the averaged gradient, then broadcast from that rank"
            )


def _late_hint(records, step, i, net: Net, initial, atol) -> None:
    """Fail where parameter ``i``, the one of ``net`` without a gradient at the first step,
    shows why it differs at ``step``: not stepped though it had a gradient (an optimizer built
    at the first step over the parameters that had one), or stepped at the first step with
    zeros given where it had none."""
    if i != net.late_param:
        return
    world, got = len(records), records[0]["params"][step][i]
    whose = (
        f"parameter {i} (layer {net.late}'s bias, left out of step 0's forward: no gradient there)"
    )
    if step > 0 and torch.equal(got, records[0]["params"][step - 1][i]):
        raise CheckFailed(
            f"{whose} was not stepped at step {step} ({world} ranks), where it has a gradient: "
            "was the local optimizer built at the first step, over the parameters that had a "
            "gradient then? Build optimizer_cls over every parameter this rank owns, in "
            "__init__: Adam skips a parameter whose .grad is None, and steps it once it has one"
        )
    zeros = zero_reference(world, net=net, none_as_zeros=True)[step][i]
    if torch.allclose(got, zeros, rtol=0, atol=atol) and not torch.equal(got, initial):
        raise CheckFailed(
            f"{whose} after step {step} ({world} ranks) is what Adam gives when it steps a zero "
            "gradient at step 0: a zero_grad() that makes zeros where p.grad was None "
            "(torch.zeros_like) has Adam step a parameter that got no gradient (its step "
            "count, its moments, weight decay), which DDP's Adam skips. Leave a gradient that "
            "is None as None: p.grad = None, or zero_() only where p.grad is not None"
        )


def _all_there(got, want, atol) -> bool:
    """Whether the values of all of ``got``'s parameters, sorted, are ``want``'s."""
    got_all, want_all = (torch.cat([t.reshape(-1) for t in ts]).sort().values for ts in (got, want))
    return got_all.shape == want_all.shape and torch.allclose(got_all, want_all, rtol=0, atol=atol)


def _moved_hint(first, got, rank, step, world) -> None:
    """Fail when rank ``rank``'s parameter differs from rank 0's but holds rank 0's value of
    another parameter: each rank packed or unpacked a flat buffer in its own order."""
    for i, (a, b) in enumerate(zip(first, got, strict=True)):
        j = next((j for j, c in enumerate(first) if j != i and torch.equal(b, c)), None)
        if not torch.equal(a, b) and j is not None:
            raise CheckFailed(
                f"after step {step} rank {rank}'s parameter {i} holds rank 0's parameter {j} "
                f"({world} ranks): the values reached other parameters than the ones they "
                "were sent for, as when the shares are ordered differently on each rank (a "
                "set, a dict keyed by id(), a sort by id() or data_ptr(): addresses differ "
                "from process to process). Keep each owner's share as a list in the order of "
                "params, the same on every rank, and unpack it in that order"
            )


def _disagree_hint(records, step, world) -> None:
    """Fail when, at ``step``, some parameters were given to two ranks' optimizers and others
    to none: each rank chose the owners from its own order of the parameters."""
    if any(len(record.get("held", ())) <= step for record in records):
        return
    given = [set(record["held"][step]) - {-1} for record in records]
    count = {i: sum(i in g for g in given) for i in range(len(records[0]["params"][step]))}
    twice = [i for i, n in count.items() if n > 1]
    none = [i for i, n in count.items() if n == 0]
    if twice and none:
        shares = "; ".join(f"rank {r}'s {sorted(g)}" for r, g in enumerate(given))
        raise CheckFailed(
            f"at step {step} ({world} ranks) the ranks disagree on who owns what: parameters "
            f"{twice} went to several ranks' optimizers and {none} to none ({shares}). Each "
            "rank chose owners from its own order of the parameters, as a set, a dict keyed "
            "by id(), or a sort by id() or data_ptr() gives: addresses differ from process to "
            "process. Give owners in the order of params, the same on every rank"
        )


def _shuffled(first, record, step) -> bool:
    """Whether a rank's parameters at ``step`` hold rank 0's values (``first``), in all, but
    not in the same places."""
    flat = [torch.cat([t.reshape(-1) for t in ps]) for ps in (first, record["params"][step])]
    return flat[0].shape == flat[1].shape and torch.equal(*(f.sort().values for f in flat))
