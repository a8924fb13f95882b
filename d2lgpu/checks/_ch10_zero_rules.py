"""The rules that read ``10.shard_optimizer``'s records in the parent (:mod:`.ch10_ddp_by_hand`),
apart from the comparison with DDP (:func:`._ch10_zero.compare_zero`): what the answer built
(:func:`setup_error`), gradients left by ``zero_grad()`` (:func:`compare_zero_grad`),
``step()``'s collectives (:func:`compare_calls`), the optimizer state each rank holds after
each step (:func:`compare_state`) and during it (:func:`compare_held`), and Adam's moments
of parameters a rank does not own, kept anywhere else (:func:`compare_kept`).
"""

from __future__ import annotations

import math

import torch

from ._ch10_by_hand import STEPS
from ._ch10_zero import ADAM_KWARGS, PLAIN, Net, param_bytes
from ._kit_collectives import describe
from ._util import CheckFailed

__all__ = [
    "compare_built",
    "compare_calls",
    "compare_given",
    "compare_held",
    "compare_state",
    "compare_zero_grad",
    "reduces_named",
    "setup_error",
]


def setup_error(setup) -> str | None:
    """The hint when what the answer built lacks a method the steps call (a rank's
    ``setup``: its type's name and the methods it lacks); None when it has them."""
    if setup["type"] == "NoneType":
        return (
            "calling your answer gave None, not an optimizer: pass the class ShardedOptimizer "
            "itself (or a function that returns one), whose step() and zero_grad() run each step"
        )
    if setup["missing"]:
        return f"{setup['type']} has no method {setup['missing'][0]}()"
    return None


def compare_zero_grad(records) -> None:
    """After each step's ``zero_grad()``, no gradient left on any rank (``left``: the
    indexes of the parameters whose gradients were not cleared, per step); before step 0
    there is none yet."""
    for rank, record in enumerate(records):
        for step, left in enumerate(record["left"]):
            if step > 0 and left:
                raise CheckFailed(
                    f"after zero_grad() rank {rank} still holds gradients of parameters {left} "
                    f"(step {step}): backward adds the new gradients to them, so what the next "
                    "step gives differs from DDP with Adam. zero_grad() must clear every "
                    "parameter's gradient (p.grad = None for all of them), not only this "
                    "rank's own"
                )


def compare_calls(records, net: Net = PLAIN) -> None:
    """step()'s collectives, on each rank and step, on ``net``'s model: each parameter sent
    once, nothing reduced (the gradients arrive averaged)."""
    needed = param_bytes(net)
    for rank, record in enumerate(records):
        if (groups := record.get("groups")) and all(groups):
            raise CheckFailed(
                f"step() created a new process group (dist.new_group) at every step (rank "
                f"{rank}: {', '.join(map(str, groups))} in steps 0 to {len(groups) - 1}): every "
                "rank takes part in setting up a group, a collective set-up at each step that "
                "costs more than the broadcasts, and each group lives on (its memory, its "
                "connections). Broadcast over the default group (leave out group=), or make a "
                "group once, in __init__"
            )
        for step, calls in enumerate(record["calls"]):
            empty = next((c for c in calls if "barrier" in c.kind), None)
            if empty is not None:
                raise CheckFailed(
                    f"step() called {describe(empty)} (rank {rank}, step {step}): an extra "
                    "collective, which makes every rank wait for the slowest at every step "
                    "and sends nothing. The broadcasts already leave every rank with the same "
                    "parameters: leave it out"
                )
            reduces_named(calls, rank, step)
            sent = sum(c.nbytes for c in calls)
            if sent > needed and sum(math.prod(c.shape) for c in calls) == needed // net.itemsize:
                raise CheckFailed(
                    f"step() sent {sent} bytes in {len(calls)} collectives for {needed} bytes "
                    f"of parameters (rank {rank}, step {step}), though as many elements as the "
                    f"parameters hold: the buffers are of a wider dtype than the parameters' "
                    f"{net.name}{' (float64?)' if net.itemsize == 4 else ''}. Build each flat "
                    "buffer in the parameters' dtype (torch.cat of p.detach().reshape(-1))"
                )
            if sent > needed:
                raise CheckFailed(
                    f"step() sent {sent} bytes in {len(calls)} collectives for {needed} bytes "
                    f"of parameters (rank {rank}, step {step}): an extra collective. Send each "
                    "parameter once, from its owner"
                )


def reduces_named(calls, rank: int, step: int) -> None:
    """Fail where ``step()``'s collectives at ``step`` (rank ``rank``'s) reduce anything: the
    gradients arrive averaged, and a sum of them again is ``world`` times too large."""
    reduce = next((c for c in calls if "reduce" in c.kind), None)
    if reduce is not None:
        raise CheckFailed(
            f"step() called {describe(reduce)} (rank {rank}, step {step}): an extra "
            "collective. The gradients are already averaged before step(), as DDP "
            "does (the checker did it); ZeRO-1's step only broadcasts each updated "
            "parameter from its owner"
        )


_NOT_PARAMETERS = (
    "an optimizer was given (or holds state for) a tensor that is not one of the model's "
    "parameters: p.data, p.detach() or a copy (a float32 master of a float64 parameter "
    "rounds it) is another tensor, whose .grad backward never sets. Build optimizer_cls over "
    "the parameters themselves"
)


# what Adam keeps of the keyword arguments it was built with that change its steps
_STEPPING = ("lr", "betas", "eps", "weight_decay", "amsgrad", "maximize")


def compare_built(records, world: int) -> None:
    """Every optimizer the ranks built was given the keyword arguments of the case on
    ``world`` ranks (:data:`._ch10_zero.ADAM_KWARGS`), no more and no fewer: ``built`` holds
    the settings of each of their parameter groups (a group's own, or the defaults)."""
    given = ADAM_KWARGS[world]
    adam = torch.optim.Adam([torch.zeros(1, requires_grad=True)]).defaults
    want = {**adam, **given}
    for rank, record in enumerate(records):
        for built in record.get("built", ()):
            wrong = [k for k in _STEPPING if k in built and built[k] != want[k]]
            if wrong:
                got = {k: built[k] for k in _STEPPING if k in built and built[k] != adam[k]}
                raise CheckFailed(
                    f"rank {rank}'s optimizer_cls was built ({world} ranks) with "
                    f"{_built_words(got, world, wrong[0], built[wrong[0]], adam)}; this case "
                    f"passed {given}: pass on the keyword arguments ShardedOptimizer received "
                    "as they are, none dropped and none of your own: optimizer_cls(own_params, "
                    "**kwargs)"
                )
            if extra := [k for k in built.get("given", ()) if k not in given]:
                raise CheckFailed(
                    f"rank {rank}'s optimizer_cls was given "
                    + (f"{extra[0]}={built[extra[0]]!r}" if extra[0] in built else
                       f"a setting by position after the parameters ({len(extra)})")
                    + f" ({world} ranks), which this case did not pass ({given}): an argument "
                    "of your own, even one equal to Adam's default, overrides the default of "
                    "whatever optimizer_cls the caller passes (another optimizer's, or its own "
                    "partial). Pass on the keyword arguments ShardedOptimizer received as they "
                    "are: optimizer_cls(own_params, **kwargs)"
                )  # fmt: skip


def _built_words(got: dict, world: int, key: str, value, adam: dict) -> str:
    """What an optimizer built with ``got`` (its settings off Adam's defaults) was given,
    on ``world`` ranks; else its first setting ``key`` that differs, and its ``value``."""
    given = ADAM_KWARGS[world]
    if not got:
        return "Adam's defaults: none of the keyword arguments were passed on"
    if len(given) > 1 and got == {"lr": given.get("lr")}:
        return "lr alone (Adam with lr alone: the other keyword arguments were dropped)"
    if any(got == other for w, other in ADAM_KWARGS.items() if w != world):
        return f"{got}, the keyword arguments of another case: values written in"
    if key in given:
        return f"{key}={value!r}, where this case passed {key}={given[key]!r}"
    return f"{key}={value!r}, where this case passed no {key} (Adam's default is {adam[key]!r})"


def compare_given(records) -> None:
    """Every tensor the ranks' optimizers were given is one of the model's parameters."""
    if any(-1 in held for record in records for held in record.get("held", ())):
        raise CheckFailed(_NOT_PARAMETERS)


def compare_state(records, world, numels, itemsize=4):
    """The optimizer state each rank holds after the last step (``numels``: the model's
    parameters' sizes; ``itemsize``: their dtype's bytes): built on every rank from
    optimizer_cls, of the model's own parameters, each parameter's on one rank, and 1/n of
    the bytes on each, exactly where the parameters are of one size and n divides their
    count, else within the largest parameter's."""
    missing = [rank for rank, record in enumerate(records) if record["optimizers"] == 0]
    holders = [rank for rank, record in enumerate(records) if len(record["state"]) == len(numels)]
    if missing and holders:
        raise CheckFailed(
            f"rank {holders[0]} holds the optimizer state of all {len(numels)} parameters, and "
            f"rank{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} built no "
            f"optimizer (owning none): share the parameters out, about 1/{world} of their "
            "bytes to each rank (a greedy choice must add each parameter's bytes to the load "
            "of the rank that gets it)"
        )
    if missing and len(missing) < world:  # the others share the parameters out
        why = (
            "is the world size, 2, written in? Give owners over dist.get_world_size() ranks"
            if min(missing) >= 2
            else "the owners are unbalanced: give each parameter to the rank that owns the "
            "fewest bytes so far, and add its bytes to that rank's count"
        )
        raise CheckFailed(
            f"rank{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} of {world} "
            f"built no optimizer, as if owning no parameter, though the model's {len(numels)} "
            f"parameters leave every one of {world} ranks some: {why}"
        )
    if missing:
        raise CheckFailed(
            "no optimizer was built from optimizer_cls on any rank: build this rank's "
            "optimizer as optimizer_cls(its_own_params, **kwargs), with the class the checker "
            "passes (it counts the optimizer's state), not torch.optim.Adam by name"
        )
    per_param = itemsize * 2  # bytes per element: Adam's exp_avg and exp_avg_sq
    whole = per_param * sum(numels)
    owners: dict[int, list[int]] = {}
    for rank, record in enumerate(records):
        for i in record["state"]:
            owners.setdefault(i, []).append(rank)
    if -1 in owners:
        raise CheckFailed(_NOT_PARAMETERS)
    for i, ranks in sorted(owners.items()):
        if len(ranks) > 1:
            every = len(ranks) == world
            raise CheckFailed(
                f"parameter {i}'s optimizer state is on ranks {ranks} ({world} ranks): "
                + ("every rank holds the whole optimizer state, as without sharding: "
                   if every else "")
                + "give each rank's optimizer_cls only the parameters that rank owns"
            )  # fmt: skip
    # whole parameters: a rank's share is 1/n of the bytes where n divides parameters of one
    # size (8 on 2 or 4 ranks), else within the largest parameter's (8 on 3 ranks: 3, 3, 2)
    one_size = len(set(numels)) == 1
    exact, one = one_size and len(numels) % world == 0, per_param * max(numels)
    counts = {len(record["state"]) for record in records}
    for rank, record in enumerate(records):
        held = sum(record["state"].values())
        if abs(held - whole / world) >= one or (exact and held != whole // world):
            if exact:
                even = f"1/n is {whole // world}"
            elif one_size:
                even = (f"1/n is {whole / world:,.0f}, so each rank holds the bytes of "
                        f"{len(numels) // world} or {len(numels) // world + 1} parameters")  # fmt: skip
            else:
                even = f"1/n is {whole / world:,.0f}, within the largest parameter's {one}"
            alike = "" if one_size or len(counts) > 1 else (
                f". Every rank holds {next(iter(counts))} parameters, but this model's are of "
                f"{len(set(numels))} sizes ({', '.join(map(str, sorted(set(numels))))} "
                "elements): owners given by index (i % world), by consecutive shares of "
                "the count, or by a load that adds 1 or p.element_size() per parameter, "
                "balance the count, not the bytes "
                "(p.numel() * p.element_size())"
            )  # fmt: skip
            raise CheckFailed(
                f"rank {rank} holds {held} bytes of optimizer state, of {whole} in all over "
                f"{world} ranks: {even}{alike}. Balance the shards by bytes (give each "
                "parameter to the rank holding the fewest bytes so far)"
            )


def compare_held(records, world):
    """Each rank's optimizers, after each step: the parameters they were given, and the
    state they held right after each inner step, its own share only."""
    for step in range(STEPS):
        for rank, record in enumerate(records):
            others = [r for r in range(world) if r != rank]
            given = set(record["held"][step])
            shared = sorted(given & {i for r in others for i in records[r]["held"][step]})
            peak = record["peak"][step] if step < len(record["peak"]) else {}
            held_by_others = {i for r in others for i in _peak(records[r], step)}
            if shared or set(peak) & held_by_others:
                raise CheckFailed(
                    f"after step {step} rank {rank}'s optimizer holds parameters "
                    f"{shared or sorted(set(peak) & held_by_others)} that other ranks' "
                    f"optimizers hold too ({world} ranks): every parameter's optimizer state "
                    "lived on several ranks during the step, even if it was deleted after. "
                    "Build optimizer_cls over this rank's own parameters only"
                )


def _peak(record, step):
    return record["peak"][step] if step < len(record["peak"]) else {}
