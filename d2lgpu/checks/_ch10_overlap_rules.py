"""``10.overlap_ddp``'s rules on what its ranks recorded (:mod:`._ch10_overlap`), read in the
parent: :func:`setup_error` (what the answer built cannot run the steps), :func:`step_logs` (a
rank's raw log of hooks, launches and waits, step by step) and :func:`read_step_log` (one
step's log against the rules: every bucket launched once, from backward, async, each handle
waited once in finish(), nothing else sent). Plain functions of the records, which a test
calls in its own process."""

from __future__ import annotations

from ._ch10_buckets import bucket_numels, call_itemsize
from ._kit_collectives import describe
from ._util import CheckFailed

__all__ = ["read_step_log", "setup_error", "step_logs"]

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
