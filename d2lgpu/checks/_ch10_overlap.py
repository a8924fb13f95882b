"""What happens in each rank for ``10.overlap_ddp`` (:mod:`.ch10_ddp_by_hand`): the model,
the learner's ``OverlappedDDP`` around it with ``dist.all_reduce`` watched, and a record per
step of the order of the hooks' calls, the all-reduces' launches and their waits, with the
gradients DDP would leave; and the same steps in one process on the global batch.
"""

from __future__ import annotations

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn

from ._ch10_by_hand import SEED, STEPS, batch, grads_of, share

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


class _Handle:
    """The learner's handle of an async all-reduce: its wait is recorded, then done."""

    def __init__(self, work, index, log, state):
        self._work, self._index, self._log, self._state = work, index, log, state

    def wait(self, *args, **kwargs):
        self._log.append(("wait", self._index, self._state["in_backward"]))
        return self._work.wait(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._work, name)


def _watch_all_reduce(log, state):
    real = dist.all_reduce

    def all_reduce(tensor, op=dist.ReduceOp.SUM, group=None, async_op=False):
        index = sum(1 for e in log if e[0] == "launch")
        log.append(("launch", tensor.numel(), async_op, state["in_backward"]))
        work = real(tensor, op=op, group=group, async_op=async_op)
        return _Handle(work, index, log, state) if async_op else work

    dist.all_reduce = all_reduce  # only in this forked rank, which exits after the check


def _overlap_job(answer, rank, world, cap):
    model = overlap_net()
    names = [n for n, _ in model.named_parameters()]
    log, state = [], {"in_backward": False}
    for name, p in model.named_parameters():  # first: these run before the learner's hooks
        p.register_post_accumulate_grad_hook(lambda p, name=name: log.append(("ready", name)))
    _watch_all_reduce(log, state)
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
