"""What happens in each rank for ``10.overlap_ddp`` (:mod:`.ch10_ddp_by_hand`): the learner's
``OverlappedDDP`` with its collectives (:mod:`._ranks`' watch) and host reads in backward
watched, a record per step of the order of the hooks' calls, the all-reduces' launches, other
collectives and the waits (``wait()``, its future's, ``wait_all``; a poll that answered True),
with the gradients DDP would leave; the steps in one process on the global batch. The rules
on the records, read in the parent, are :mod:`._ch10_overlap_rules`."""

from __future__ import annotations

import weakref
from functools import partial

import torch
import torch.nn.functional as F

from ..ranks import lost_peer
from . import _ranks
from ._ch10_averaging import host_read_hint, host_reads
from ._ch10_buckets import overlap_net
from ._ch10_by_hand import STEPS, after_a_first, batch, grads_of, share
from ._ch10_overlap_rules import setup_error
from ._kit import kept_from_earlier
from ._kit_collective_reads import written_hint
from ._kit_seeds import reseeds_named
from ._ranks import RuleBroken

__all__ = ["SGD_LR", "CapJob", "overlap_reference"]

SGD_LR = 0.1


def _watch_collectives(log, state):
    """Log, through the rank job's collective watch, each collective's launch and each wait
    on its handle as ``("call", event, call, in_backward)``; the parent reads them
    (:func:`step_logs`). ``state["sent"]``: per step, a weak reference to each async
    all-reduce's tensor."""

    def note(event, call):
        log.append(("call", event, call, state["in_backward"]))
        if event == "launch" and call.kind == "all_reduce" and call.held and state["sent"]:
            state["sent"][-1].append((weakref.ref(call.held[0]), call))  # what it sends

    _ranks.watch().note = note


def _overlap_job(answer, rank, world, cap, dtype, out_of_order=False):
    model = overlap_net(dtype, out_of_order)
    names = [n for n, _ in model.named_parameters()]
    log, state = [], {"in_backward": False, "sent": []}
    _ranks.watch().off_thread = _THREAD  # a launch from a thread of the answer's own
    for name, p in model.named_parameters():  # first: these run before the learner's hooks
        p.register_post_accumulate_grad_hook(lambda p, name=name: log.append(("ready", name)))
    _watch_collectives(log, state)
    reseeds = partial(reseeds_named, "your OverlappedDDP", RuleBroken)
    with reseeds():  # collectives here, before the steps (DDP's broadcast): left out
        ddp = answer(model, cap)
    hooks = _hooks_on(model)
    unhooked = [n for n, h in zip(names, hooks, strict=True) if h < 2]  # the checker's own only
    setup = {"type": type(ddp).__name__, "finish": callable(getattr(ddp, "finish", None)),
             "hooks": max(hooks), "unhooked": unhooked}  # fmt: skip
    if setup_error(setup) is not None:
        return {"setup": setup}
    opt = torch.optim.SGD(model.parameters(), lr=SGD_LR)
    shadow = overlap_net(dtype, out_of_order)
    steps = []
    for step in range(STEPS):
        x, y = batch(step, 6)
        x = x.to(dtype)
        shadow.load_state_dict(model.state_dict())
        # what DDP leaves: the ranks' gradients averaged (the global batch's if shares are equal)
        shares = [grads_of(shadow, x[share(r, world)], y[share(r, world)]) for r in range(world)]
        whole = [sum(gs) / world for gs in zip(*shares, strict=True)]
        opt.zero_grad(set_to_none=step != 1)  # step 1 in place: p.grad is zeros, not None
        del log[:]
        state["sent"].append([])
        state["in_backward"] = True
        try:
            with host_reads() as reads, reseeds():  # the hooks' host reads, in backward
                F.cross_entropy(model(x[share(rank, world)]), y[share(rank, world)]).backward()
        except (AttributeError, TypeError) as error:
            if "NoneType" not in str(error):
                raise
            what = f"{type(error).__name__}: {error}"
            raise RuleBroken(_EARLY.format(step=step, error=what)) from None
        if reads:
            raise RuleBroken(host_read_hint(reads[0], "a hook", f"in backward (step {step})"))
        state["in_backward"] = False
        log.append(("backward returned",))
        with reseeds():
            try:
                ddp.finish()
            except RuntimeError as error:
                if not any(w in str(error) for w in _SIZES) or lost_peer(str(error)):
                    raise
                said = _ranks.learner_reply(error)[1]
                raise RuleBroken(_UNPACKED.format(said=said, step=step)) from None
        log.append(("finish returned",))
        if written := [c for _, c in state["sent"][-1] if c.written]:
            raise RuleBroken(written_hint(written, f"finish() returned at step {step}"))
        if (now := max(_hooks_on(model))) > setup["hooks"]:  # registered again in finish()
            raise RuleBroken(_AGAIN.format(step=step, now=now - 1, once=setup["hooks"] - 1))
        got = [None if p.grad is None else p.grad.detach().clone() for p in model.parameters()]
        steps.append({"log": list(log), "whole": whole, "local": shares[rank], "got": got})
        opt.step()
    # of the waited ones: the watch holds an unwaited call's tensor, which has its own hint
    if kept := kept_from_earlier([[r for r, c in sent if c.waits] for sent in state["sent"]]):
        raise RuleBroken(_KEPT.format(kept=kept, steps=STEPS))
    return {"setup": setup, "names": names, "steps": steps,
            "numels": [p.numel() for p in model.parameters()], "itemsize": dtype.itemsize,
            "final": [p.detach().clone() for p in model.parameters()]}  # fmt: skip


def _hooks_on(model) -> list[int]:
    """Each parameter's post-accumulate hooks, the checker's own included."""
    return [len(getattr(p, "_post_accumulate_grad_hooks", None) or ()) for p in model.parameters()]


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
    """``_overlap_job`` with a bucket size, the model's dtype, whether its layers are
    registered out of order and whether a first instance is built before (over the model in
    float32), picklable by reference for the forked ranks."""

    def __init__(self, cap, dtype=torch.float32, out_of_order=False, first=False):
        self.cap, self.dtype, self.out_of_order, self.first = cap, dtype, out_of_order, first

    def __call__(self, answer, rank, world):
        def job():
            return _overlap_job(answer, rank, world, self.cap, self.dtype, self.out_of_order)

        if not self.first:
            return job()
        first = overlap_net(torch.float32, self.out_of_order)  # a plan cached by the class
        return after_a_first(answer, lambda: answer(first, self.cap), FIRST, job)


FIRST = "OverlappedDDP (over the model in float32)"


_KEPT = (
    "after {steps} steps, {kept} tensor(s) all-reduced in earlier steps are still alive: something "
    "keeps every step's flat buffers (a list never cleared), so memory grows with each step. "
    "Keep only what finish() needs for this step, or reuse one buffer per bucket"
)

_THREAD = (
    "{call} was launched from a thread of your own, not from the hook on "
    "backward's thread: threads run in whatever order they are scheduled, so the ranks can "
    "launch their buckets in different orders and sum one rank's bucket with another's (or "
    "hang). Launch in the hook itself: dist.all_reduce(..., async_op=True) returns at once"
)
_AGAIN = (
    "after finish() of step {step} a parameter has {now} hooks of yours, {once} after "
    "__init__: the hooks were registered again (in finish(), or a set-up it calls), so each "
    "step adds one more, and every one runs in each backward. Register each parameter's hook "
    "once, in __init__, and reset only the counts and handles in finish()"
)

# the words of torch's errors for a tensor of one size put in the place of another's
_SIZES = ("is invalid for input of size", "must match the size", "size of tensor", "shape mismatch")
_UNPACKED = (
    "your finish() raised {said} (step {step}): a flat buffer unpacked into the parameters of "
    "another bucket, whose sizes differ? The buckets' all-reduces are launched in the order "
    "their last gradients arrive, which need not be your plan's order, and a list of "
    "handles in launch order paired with the plan's buckets pairs them wrongly. Keep each "
    "handle with its own bucket (a dict, or the bucket's own slot)"
)

_EARLY = (
    "{error}, raised during backward (step {step}): a hook read p.grad of a parameter whose "
    "gradient backward had not computed yet (every parameter of this model gets one). Launch "
    "a bucket from the hook of its last gradient: count the bucket's ready gradients and "
    "launch when the count reaches the number of its parameters. Hooks made as lambdas in a "
    "loop read the loop variable when they run, its last value (a late-bound closure): bind "
    "it when made, lambda p, i=i: ..."
)
