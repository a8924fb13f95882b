"""What happens in each rank for ``10.overlap_ddp`` (:mod:`.ch10_ddp_by_hand`): the learner's
``OverlappedDDP`` with its collectives (:mod:`._ranks`' watch) and host reads in backward
watched, a record per step of the order of the hooks' calls, the all-reduces' launches, other
collectives and the waits (``wait()``, its future's, ``wait_all``; a poll that answered True),
with the gradients DDP would leave; the steps in one process on the global batch; the rules
on the records: :func:`setup_error`, :func:`step_logs`, :func:`read_step_log`."""

from __future__ import annotations

import weakref

import torch
import torch.nn.functional as F

from . import _ranks
from ._ch10_averaging import host_read_hint, host_reads
from ._ch10_buckets import bucket_numels, call_itemsize, overlap_net
from ._ch10_by_hand import STEPS, after_a_first, batch, grads_of, share
from ._kit import kept_from_earlier
from ._kit_collectives import describe
from ._ranks import RuleBroken
from ._util import CheckFailed

__all__ = ["SGD_LR", "CapJob", "overlap_reference", "read_step_log", "setup_error", "step_logs"]

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
    for name, p in model.named_parameters():  # first: these run before the learner's hooks
        p.register_post_accumulate_grad_hook(lambda p, name=name: log.append(("ready", name)))
    _watch_collectives(log, state)
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
            with host_reads() as reads:  # the hooks' host reads, in backward
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
        ddp.finish()
        log.append(("finish returned",))
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


# --- reading a step's log in the parent ----------------------------------------------------

_NO_HOOK = (
    "no parameter has a hook registered with p.register_post_accumulate_grad_hook(hook): "
    "register one on every parameter in __init__; autograd calls hook(p) once p.grad holds "
    "this step's gradient (p.register_hook runs earlier, on the gradient before it is "
    "accumulated, when p.grad is not set yet)"
)


def setup_error(setup) -> str | None:
    """The hint when what the answer built cannot run the steps (a rank's ``setup``: its
    type's name, whether it has ``finish()``, the most hooks on a parameter, the checker's
    own included); None when it can."""
    if setup["type"] == "NoneType":
        return (
            "calling your answer gave None, not a model: pass the class OverlappedDDP itself "
            "(or a function that returns one), whose hooks launch the all-reduces and whose "
            "finish() waits on them"
        )
    if not setup["finish"]:
        return (
            f"{setup['type']} has no method finish(): add finish(self), which waits on the "
            "handles after backward"
        )
    if setup["hooks"] < 2:  # only the checker's own
        return _NO_HOOK
    return None


_KEPT = (
    "after {steps} steps, {kept} tensor(s) all-reduced in earlier steps are still alive: something "
    "keeps every step's flat buffers (a list never cleared), so memory grows with each step. "
    "Keep only what finish() needs for this step, or reuse one buffer per bucket"
)
_AGAIN = (
    "after finish() of step {step} a parameter has {now} hooks of yours, {once} after "
    "__init__: the hooks were registered again (in finish(), or a set-up it calls), so each "
    "step adds one more, and every one runs in each backward. Register each parameter's hook "
    "once, in __init__, and reset only the counts and handles in finish()"
)
_EARLY = (
    "{error}, raised during backward (step {step}): a hook read p.grad of a parameter whose "
    "gradient backward had not computed yet (every parameter of this model gets one). Launch "
    "a bucket from the hook of its last gradient: count the bucket's ready gradients and "
    "launch when the count reaches the number of its parameters. Hooks made as lambdas in a "
    "loop read the loop variable when they run, its last value (a late-bound closure): bind "
    "it when made, lambda p, i=i: ..."
)
_WHEN = {True: "inside backward", False: "after backward returned"}


def step_logs(raw_logs):
    """Each step's log as :func:`read_step_log` reads it, from a rank's raw logs: each
    all-reduce's launch as ``("launch", numel, async_op, in_backward)``, any other collective
    as ``("other", what, in_backward)``, each wait on an all-reduce's handle as ``("wait",
    index, in_backward, step)``: the launch's index and step (``True`` after them: a poll)."""
    launched: dict[int, tuple[int, int]] = {}  # a call's index: (its step, its launch index)
    logs = []
    for step, raw in enumerate(raw_logs):
        log: list[tuple] = []
        for entry in raw:
            if entry[0] != "call":
                log.append(entry)
                continue
            _, event, call, in_backward = entry
            if event == "launch" and call.kind == "all_reduce":
                launched[call.index] = (step, sum(1 for e in log if e[0] == "launch"))
                log.append(
                    ("launch", call.nbytes // call_itemsize(call), call.async_op, in_backward)
                )
            elif event == "launch":
                log.append(("other", describe(call), in_backward))
            elif call.index in launched:
                launch_step, index = launched[call.index]
                polled = (True,) if event == "polled" else ()  # is_completed() answered
                log.append(("wait", index, in_backward, launch_step, *polled))
        logs.append(log)
    return logs


_WAIT_IN_HOOK = (
    "waiting inside the hook: {what} while backward was still running, so backward stops "
    "until that all-reduce is done and nothing overlaps. Keep the handle "
    "(dist.all_reduce(..., async_op=True)) and wait on it in finish(), before the step"
)


def read_step_log(log, cap, step, numels, itemsize=4):
    """Check one step's log against the rules; the numels of its all-reduces, in order.
    ``numels``: the model's parameters' numels, in model order, of ``itemsize`` bytes each."""
    launches = [e for e in log if e[0] == "launch"]
    where = f"(bucket_bytes={cap}, step {step})"
    if not launches and step > 0:
        raise CheckFailed(
            f"no dist.all_reduce in step {step}, though step 0 had some (bucket_bytes={cap}): "
            "the hooks run every step; reset what counts a bucket's ready gradients (and the "
            "list of handles) in finish(), ready for the next step"
        )
    if not launches:
        raise CheckFailed(
            f"no dist.all_reduce was called {where}: register a hook on each parameter "
            "(p.register_post_accumulate_grad_hook) that launches the all-reduce of its bucket "
            "(call it as dist.all_reduce, so that the checker sees it)"
        )
    other = next((e for e in log if e[0] == "other"), None)
    if other is not None:
        raise CheckFailed(
            f"besides the buckets' all-reduces, {other[1]} ran {_WHEN[other[2]]} {where}: an "
            "extra collective. Each step sends each bucket once, and nothing else"
        )
    sent = [e[1] for e in launches]
    if sum(sent) > sum(numels):
        _extra_launches(sent, numels, cap, where, itemsize)
    for e in log:
        if e[0] == "wait" and e[2]:
            raise CheckFailed(_WAIT_IN_HOOK.format(what="a handle was waited on") + f" {where}")
        if e[0] == "launch" and e[3] and not e[2]:
            raise CheckFailed(
                _WAIT_IN_HOOK.format(what="an all_reduce without async_op=True blocked")
                + f" {where}"
            )
    if not any(e[3] for e in launches):
        raise CheckFailed(
            f"every all-reduce was launched after backward returned {where}: launch them from "
            "the hooks, as each bucket fills, so that they overlap the rest of backward"
        )
    finish = log.index(("finish returned",))
    waits = [e for e in log[:finish] if e[0] == "wait"]
    stale = next((e for e in waits if e[3] != step), None)
    if stale is not None:
        raise CheckFailed(
            f"a handle launched in step {stale[3]} was waited on again in step {step} "
            f"(bucket_bytes={cap}): the list of handles was never cleared, so each step waits "
            "on every earlier step's handles too. Clear it in finish(), after the waits"
        )
    waited = [e[1] for e in waits]
    async_launches = [i for i, e in enumerate(launches) if e[2]]
    missing = [i for i in async_launches if i not in waited]
    if missing:
        raise CheckFailed(
            f"{len(missing)} of {len(async_launches)} handles were never waited on before "
            f"finish() returned {where}: call handle.wait() on every one in finish(), before "
            "the gradients are read (the all-reduce may not be done yet)"
        )
    if any(e[4:] == (True,) for e in waits):
        raise CheckFailed(
            f"finish() polled handle.is_completed() (or a future's done()) until it said True "
            f"{where}, instead of handle.wait(): the host spins in a busy loop, and on NCCL "
            "is_completed() does not make the current stream wait for the all-reduce. Call "
            "handle.wait() on every handle in finish()")  # fmt: skip
    twice = next((i for i in async_launches if waited.count(i) > 1), None)
    if twice is not None:
        raise CheckFailed(
            f"the handle of all-reduce {twice} was waited on {waited.count(twice)} times {where}: "
            f"{len(waited)} waits for {len(async_launches)} launches. Wait on each handle once, "
            "in finish()"
        )
    return sent


def _extra_launches(sent, numels, cap, where, itemsize):
    """The hint when the all-reduces carried more than the gradients: an all-reduce that is
    not a bucket (of the buckets either accepted rule gives), or a bucket sent twice."""
    sizes = [itemsize * n for n in numels][::-1]
    buckets = [bucket_numels(sizes, numels[::-1], cap, rule) for rule in (True, False)]
    for expected in buckets:
        rest = list(sent)
        for n in expected:
            if n not in rest:
                break
            rest.remove(n)
        else:
            strangers = [n for n in rest if n not in expected]
            if strangers:
                raise CheckFailed(
                    f"{len(sent)} all-reduces for {len(expected)} buckets {where}: the "
                    f"all-reduce of {strangers[0]} element(s) is not a bucket (the buckets hold "
                    f"{expected}), an extra collective. Each step sends each bucket once, "
                    "and nothing else"
                )
    raise CheckFailed(
        f"a bucket sent twice {where}: your all-reduces carried {sum(sent)} elements for "
        f"{sum(buckets[0])} elements of gradients. Launch each bucket once, when its last "
        "gradient arrives, and reset the count of ready gradients in finish() for the next step"
    )
