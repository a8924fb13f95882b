"""``10.shard_optimizer`` (ZeRO-1) for :mod:`.ch10_ddp_by_hand`: what each rank runs (the
learner's ``ShardedOptimizer`` over Adam, with the gradients averaged as DDP does), DDP with
Adam in one process, and the comparisons that name a mistake: parameters that differ between
ranks or from DDP's, Adam's state lost between steps or built with the wrong keyword
arguments, and optimizer state that is not 1/n of the whole on each rank.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn

from ._ch10_by_hand import SEED, STEPS, batch, grads_of, share
from ._util import CheckFailed

__all__ = ["ADAM_KWARGS", "compare_state", "compare_zero", "zero_job", "zero_net"]

ADAM_LR = 0.01
# the keyword arguments ShardedOptimizer passes on to optimizer_cls, per world size: none
# left at Adam's defaults, and not the same twice, so that values written in are seen
ADAM_KWARGS: dict[int, dict] = {
    2: {"lr": ADAM_LR, "betas": (0.85, 0.99)},
    4: {"lr": 2 * ADAM_LR, "weight_decay": 0.01},
}


def zero_net():
    """8 parameters of the same size: an even split over 2 or 4 ranks exists."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)
        layers = []
        for i in range(8):
            layers += [nn.Linear(16, 16, bias=False)] + ([nn.ReLU()] if i < 7 else [])
        return nn.Sequential(*layers)


_OPTIMIZERS: list = []  # in a rank: every optimizer the learner built


class _RecordedAdam(torch.optim.Adam):
    """Adam that the checker can find: each one built joins ``_OPTIMIZERS``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _OPTIMIZERS.append(self)


def _state_bytes(params):
    """Optimizer-state bytes per parameter index, summed over the optimizers built here."""
    index = {id(p): i for i, p in enumerate(params)}
    held: dict[int, int] = {}
    for opt in _OPTIMIZERS:
        for p, state in opt.state.items():
            nbytes = sum(t.nbytes for t in state.values() if torch.is_tensor(t) and t.dim() > 0)
            i = index.get(id(p), -1)
            held[i] = held.get(i, 0) + nbytes
    return held


def _average_grads(model, world):
    """What DDP does before the step: the mean of each gradient over the ranks."""
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world


def zero_job(answer, rank, world):
    del _OPTIMIZERS[:]
    model = zero_net()
    opt = answer(model.parameters(), _RecordedAdam, **ADAM_KWARGS[world])
    for name in ("step", "zero_grad"):
        if not callable(getattr(opt, name, None)):
            return {"error": f"{type(opt).__name__} has no method {name}()"}
    agree = []
    for step in range(STEPS):
        x, y = batch(step, 16)
        opt.zero_grad()
        F.cross_entropy(model(x[share(rank, world)]), y[share(rank, world)]).backward()
        _average_grads(model, world)
        opt.step()
        agree.append([p.detach().clone() for p in model.parameters()])
    params = list(model.parameters())
    return {"params": agree, "state": _state_bytes(params), "optimizers": len(_OPTIMIZERS)}


def _zero_reference(world, keep_state=True, kwargs=None):
    """DDP with Adam, in one process: per-rank gradients averaged, then the step."""
    kwargs = ADAM_KWARGS[world] if kwargs is None else kwargs
    model = zero_net()
    opt = torch.optim.Adam(model.parameters(), **kwargs)
    out = []
    for step in range(STEPS):
        if not keep_state:
            opt = torch.optim.Adam(model.parameters(), **kwargs)
        x, y = batch(step, 16)
        grads = [grads_of(model, x[share(r, world)], y[share(r, world)]) for r in range(world)]
        for p, *gs in zip(model.parameters(), *grads, strict=True):
            p.grad = sum(gs) / world
        opt.step()
        out.append([p.detach().clone() for p in model.parameters()])
    return out


def _kwargs_hint(got, world, step, i) -> str | None:
    """The hint when parameter ``i`` is what Adam with other keyword arguments gives."""
    given = ADAM_KWARGS[world]
    for kwargs, what in (
        ({}, "Adam's defaults: none of the keyword arguments were passed on"),
        ({"lr": given["lr"]}, "Adam with lr alone: the other keyword arguments were dropped"),
        *(
            (other, f"Adam with {other}, the keyword arguments of another case: values "
             "written in")
            for w, other in ADAM_KWARGS.items()
            if w != world
        ),
    ):  # fmt: skip
        if torch.allclose(got, _zero_reference(world, kwargs=kwargs)[step][i], rtol=0, atol=1e-6):
            return (
                f"parameter {i} after step {step} ({world} ranks) is what {what}. This case "
                f"passes {given}: build optimizer_cls(own_params, **kwargs) with the kwargs "
                "ShardedOptimizer received"
            )
    return None


def compare_zero(records, world):
    initial = list(zero_net().parameters())
    ref, fresh = _zero_reference(world), _zero_reference(world, keep_state=False)
    for step in range(STEPS):
        first = records[0]["params"][step]
        for rank, record in enumerate(records[1:], 1):
            for i, (a, b) in enumerate(zip(first, record["params"][step], strict=True)):
                if not torch.equal(a, b):
                    raise CheckFailed(
                        f"after step {step} rank {rank}'s parameter {i} differs from rank 0's "
                        f"({world} ranks): after the sharded step broadcast every parameter "
                        "from the rank that owns it (dist.broadcast(p.data, src=owner)), so "
                        "that all ranks hold the same parameters"
                    )
        for i, (got, want) in enumerate(zip(first, ref[step], strict=True)):
            if torch.allclose(got, want, rtol=0, atol=1e-6):
                continue
            if step == 0 and torch.equal(got, initial[i].detach()):
                raise CheckFailed(
                    f"parameter {i} never changed in step 0 ({world} ranks): some rank must own "
                    "it, step it, and broadcast it from that rank (src=its owner, not rank 0)"
                )
            if torch.allclose(got, fresh[step][i], rtol=0, atol=1e-6):
                raise CheckFailed(
                    f"parameter {i} after step {step} is what a new Adam would give: Adam's "
                    "state (its moments) was lost between steps. Build each rank's optimizer "
                    "once, in __init__, and keep it"
                )
            hint = _kwargs_hint(got, world, step, i)
            if hint is not None:
                raise CheckFailed(hint)
            err = (got - want).abs().max().item()
            raise CheckFailed(
                f"parameter {i} after step {step} ({world} ranks) differs from DDP with Adam by "
                f"{err:.3g} (more than 1e-6): each parameter must be stepped by exactly one "
                "rank, with the averaged gradient, then broadcast from that rank"
            )


def compare_state(records, world, numels):
    if any(record["optimizers"] == 0 for record in records):
        raise CheckFailed(
            "no optimizer was built from optimizer_cls on some rank: build this rank's "
            "optimizer as optimizer_cls(its_own_params, **kwargs), with the class the checker "
            "passes (it counts the optimizer's state), not torch.optim.Adam by name"
        )
    per_param = 4 * 2  # bytes per element: Adam's exp_avg and exp_avg_sq in float32
    whole = per_param * sum(numels)
    owners: dict[int, list[int]] = {}
    for rank, record in enumerate(records):
        for i in record["state"]:
            owners.setdefault(i, []).append(rank)
    if -1 in owners:
        raise CheckFailed(
            "an optimizer holds state for a tensor that is not one of the model's parameters: "
            "build optimizer_cls over the parameters themselves (not copies)"
        )
    for i, ranks in sorted(owners.items()):
        if len(ranks) > 1:
            every = len(ranks) == world
            raise CheckFailed(
                f"parameter {i}'s optimizer state is on ranks {ranks} ({world} ranks): "
                + ("every rank holds the whole optimizer state, as without sharding. "
                   if every else "")
                + "give each rank's optimizer_cls only the parameters that rank owns"
            )  # fmt: skip
    for rank, record in enumerate(records):
        held = sum(record["state"].values())
        if held != whole // world:
            raise CheckFailed(
                f"rank {rank} holds {held} bytes of optimizer state, of {whole} in all over "
                f"{world} ranks: 1/n is {whole // world}. Balance the shards by bytes (give each "
                "parameter to the rank holding the fewest bytes so far)"
            )
