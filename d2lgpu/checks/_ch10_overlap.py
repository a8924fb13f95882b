"""What happens in each rank for ``10.overlap_ddp`` (:mod:`.ch10_ddp_by_hand`): the model,
the learner's ``OverlappedDDP`` around it with its collectives watched (:mod:`._ranks`' watch),
and a record per step of the order of the hooks' calls, the all-reduces' launches, any other
collective, and the waits on the handles (``wait()``, its future's, ``torch.futures.wait_all``),
with the gradients DDP would leave; and the same steps in one process on the global batch.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from . import _ranks
from ._ch10_by_hand import SEED, STEPS, batch, grads_of, share
from ._kit_collectives import describe

__all__ = ["SGD_LR", "CapJob", "bucket_numels", "overlap_net", "overlap_reference"]

SGD_LR = 0.1


def overlap_net():
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)
        return nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(),
                             nn.Linear(16, 3))  # fmt: skip


def bucket_numels(sizes_bytes, numels, cap, close_at_cap=True):
    """Bucket sizes (elements) when parameters, in the order given, fill buckets of ``cap``.

    ``close_at_cap``: DDP's rule, a bucket closes once it holds ``cap`` bytes or more;
    otherwise a parameter that would take a non-empty bucket past ``cap`` opens the next.
    """
    buckets, nbytes, count = [], 0, 0
    for b, n in zip(sizes_bytes, numels, strict=True):
        if not close_at_cap and count and nbytes + b > cap:
            buckets.append(count)
            nbytes, count = 0, 0
        nbytes, count = nbytes + b, count + n
        if close_at_cap and nbytes >= cap:
            buckets.append(count)
            nbytes, count = 0, 0
    return buckets + ([count] if count else [])


def _watch_collectives(log, state):
    """Log, through the rank job's collective watch, each all-reduce's launch as
    ``("launch", numel, async_op, in_backward)``, any other collective as ``("other",
    what, in_backward)``, and each wait as ``("wait", index, in_backward, step)``: the index
    of the launch in its step's launches, and the step it was launched in."""
    launched: dict[int, tuple[int, int]] = {}  # a call's index: (its step, its launch index)

    def note(event, call):
        if event == "launch" and call.kind == "all_reduce":
            index = sum(1 for e in log if e[0] == "launch")
            launched[call.index] = (state["step"], index)
            numel = call.nbytes // max(1, _itemsize(call))
            log.append(("launch", numel, call.async_op, state["in_backward"]))
        elif event == "launch":
            log.append(("other", describe(call), state["in_backward"]))
        elif call.index in launched:
            step, index = launched[call.index]
            log.append(("wait", index, state["in_backward"], step))

    _ranks.watch().note = note


def _itemsize(call) -> int:
    numel = 1
    for n in call.shape:
        numel *= n
    return call.nbytes // numel if numel else 1


def _overlap_job(answer, rank, world, cap):
    model = overlap_net()
    names = [n for n, _ in model.named_parameters()]
    log, state = [], {"in_backward": False, "step": 0}
    for name, p in model.named_parameters():  # first: these run before the learner's hooks
        p.register_post_accumulate_grad_hook(lambda p, name=name: log.append(("ready", name)))
    _watch_collectives(log, state)
    ddp = answer(model, cap)
    if not callable(getattr(ddp, "finish", None)):
        return {
            "error": f"{type(ddp).__name__} has no method finish(): add finish(self), which "
            "waits on the handles after backward"
        }
    hooks = [len(getattr(p, "_post_accumulate_grad_hooks", None) or ()) for p in model.parameters()]
    if max(hooks) < 2:  # only the checker's own
        return {"error": _NO_HOOK}
    opt = torch.optim.SGD(model.parameters(), lr=SGD_LR)
    shadow = overlap_net()
    steps = []
    for step in range(STEPS):
        x, y = batch(step, 6)
        shadow.load_state_dict(model.state_dict())
        # what DDP leaves: the average of the ranks' gradients (the global batch's when the
        # shares are equal)
        shares = [grads_of(shadow, x[share(r, world)], y[share(r, world)]) for r in range(world)]
        whole = [sum(gs) / world for gs in zip(*shares, strict=True)]
        local = shares[rank]
        opt.zero_grad()
        del log[:]
        state["step"] = step
        state["in_backward"] = True
        F.cross_entropy(model(x[share(rank, world)]), y[share(rank, world)]).backward()
        state["in_backward"] = False
        log.append(("backward returned",))
        ddp.finish()
        log.append(("finish returned",))
        got = [None if p.grad is None else p.grad.detach().clone() for p in model.parameters()]
        steps.append({"log": list(log), "whole": whole, "local": local, "got": got})
        opt.step()
    return {"names": names, "steps": steps,
            "numels": [p.numel() for p in model.parameters()],
            "final": [p.detach().clone() for p in model.parameters()]}  # fmt: skip


_NO_HOOK = (
    "no parameter has a hook registered with p.register_post_accumulate_grad_hook(hook): "
    "register one on every parameter in __init__; autograd calls hook(p) once p.grad holds "
    "this step's gradient (p.register_hook runs earlier, on the gradient before it is "
    "accumulated, when p.grad is not set yet)"
)


def overlap_reference():
    model = overlap_net()
    opt = torch.optim.SGD(model.parameters(), lr=SGD_LR)
    for step in range(STEPS):
        x, y = batch(step, 6)
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    return [p.detach().clone() for p in model.parameters()]


class CapJob:
    """``_overlap_job`` with a bucket size, picklable by reference for the forked ranks."""

    def __init__(self, cap):
        self.cap = cap

    def __call__(self, answer, rank, world):
        return _overlap_job(answer, rank, world, self.cap)
