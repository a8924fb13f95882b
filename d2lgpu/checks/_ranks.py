"""Real gloo ranks for a checker: the job they run, and the hints for what goes wrong.

:func:`run_ranks` runs a job on ``WORLD`` ranks with :func:`d2lgpu.ranks.rank_replies`, which
starts them (forked, or from a fork server with the learner's function sent by value:
:func:`d2lgpu.ranks.start_method`), joins them in a gloo group, waits for them and picks the
rank to blame (:func:`d2lgpu.ranks.root_cause`). The job here, ``10.allreduce_grads``'s,
trains :class:`Net` ``STEPS`` SGD steps on each rank's share of every batch (then
:class:`Twin` one step), calls the learner's function after each ``backward`` and sends back
the gradients before and after it and the final parameters. Another exercise passes its own
``job(answer, rank, world) -> record`` (chapter 10's DDP and ZeRO-1 by hand do).

Every job runs under a :class:`._kit_collectives.CollectiveWatch` (:func:`watch` in a rank):
each collective is recorded, and written to a file as it starts. The rules for every rank job,
checked as the job ends (:class:`RuleBroken`): no collective from a thread of the answer's
own, none left unwaited, none over a group that leaves ranks out
(:func:`._kit_collective_reads.finished_rule_hint`). A job checks its own points with
:func:`check_waited`: no call left unwaited, and no wait on a call of an earlier step.

Failures come back as :class:`CheckFailed` with a hint: an exception in a rank (with the
learner's line, :func:`learner_reply`; a ``SystemExit`` named as the rank leaving early), a
rule broken, or ranks that died or never finish (a collective some ranks skip waits until
``COLLECTIVE_TIMEOUT_S``), where a call refused or the recorded collectives say why; the
rank whose own error made the others lose their peer is the one named. What it is not: a
launcher for the chapters; they use torchrun (:mod:`d2lgpu.launcher`).
"""

from __future__ import annotations

import gc
import tempfile
import traceback
from functools import partial
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

from .._aliases import answer_graded
from ..ranks import CannotSend, lost_peer, rank_replies, root_cause
from ._ch10_averaging import ZERO_STEP, HostCopies, zero_step_advice
from ._ch10_refused import AVERAGE_CLIP, clips_refused
from ._kit import Deadlock, patched
from ._kit_collective_reads import (
    finished_rule_hint,
    first_mismatch,
    read_log,
    refused_hint,
    stale_hint,
    unwaited_hint,
    written_hint,
)
from ._kit_collectives import CollectiveWatch
from ._util import (
    CheckFailed,
    NotAttempted,
    RuleBroken,
    describe_frame,
    learner_frame,
    refused_call_named,
)

__all__ = [
    "WORLD",
    "STEPS",
    "Net",
    "run_ranks",
    "batch",
    "learner_reply",
    "records_of",
    "RuleBroken",
    "watch",
    "check_waited",
    "waits",
    "exit_hint",
    "mismatch_hint",
]

WORLD, STEPS, BATCH, LR, SEED = 2, 3, 16, 0.1, 3
COLLECTIVE_TIMEOUT_S = 15.0  # a rank waiting this long in a collective gives up
WAIT_S = 90.0  # the whole run, start to finish


class Net(nn.Module):
    """A small classifier, and a layer that forward never uses: its grads stay None."""

    def __init__(self):
        super().__init__()
        body = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
        self.unused = nn.Linear(3, 3)  # first in parameters(): a loop that stops at it is seen
        self.body = body

    def forward(self, x):
        return self.body(x)


class Twin(Net):
    """The second model, in float64: a parameter of its own, in no child module (children()
    misses it), a layer under two names (state_dict() lists it twice) and a buffer."""

    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.linspace(0.5, 1.5, 3))
        self.head = self.body[2]  # the same layer: its parameters once in parameters()
        self.register_buffer("shift", torch.zeros(3))

    def forward(self, x):
        return (super().forward(x.to(self.scale.dtype)) + self.shift) * self.scale


def make_net(cls=Net):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(SEED)
        return cls()


def batch(step):
    """The global batch of ``step``; rank r of n trains on its rows r * BATCH // n to
    (r + 1) * BATCH // n. At ``ZERO_STEP`` the first half of the inputs are zeros (padding):
    rank 0's gradient of ``body.0.weight`` is all zero there, the other ranks' are not."""
    gen = torch.Generator().manual_seed(100 + step)
    x, y = torch.randn(BATCH, 6, generator=gen), torch.randint(0, 3, (BATCH,), generator=gen)
    if step == ZERO_STEP:
        x[: BATCH // 2] = 0.0
    return x, y


def _grads(model):
    return {
        n: None if p.grad is None else p.grad.detach().clone() for n, p in model.named_parameters()
    }


def _train(model, answer, rank, world, n_steps=STEPS):
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    steps = []
    for step in range(n_steps):
        x, y = batch(step)
        share = slice(rank * BATCH // world, (rank + 1) * BATCH // world)
        opt.zero_grad(set_to_none=step % 2 == 0)  # every other step: the same grad tensors
        begin = watch().mark()  # collectives in backward: hooks an earlier call registered
        kept = waits(begin)  # the earlier steps' calls: none is waited on in this one
        F.cross_entropy(model(x[share]), y[share]).backward()
        local = _grads(model)
        before = {n: p.detach().clone() for n, p in model.named_parameters()}
        mark, groups = watch().mark(), watch().groups_made
        watch().phase = f"at step {step}"
        with HostCopies(model) as copies, patched(*clips_refused(AVERAGE_CLIP)):
            answer(model)
        check_waited(mark, "your function returned", kept)
        changed = [n for n, p in model.named_parameters() if not torch.equal(p, before[n])]
        calls = watch().calls[mark:]
        steps.append({"local": local, "after": _grads(model), "params_changed": changed,
                      "calls": calls, "groups_made": watch().groups_made - groups,
                      "host_copy": copies.copied, "uncarried": copies.uncarried(calls),
                      "host_read": copies.read, "buffers_sent": copies.buffers_sent(calls),
                      "in_backward": len(watch().calls[begin:mark])})  # fmt: skip
        opt.step()
    return steps


def _allreduce_job(answer, rank, world):
    """``10.allreduce_grads``: SGD steps with the learner's averaging after each backward."""
    model = make_net()
    steps = _train(model, answer, rank, world)
    final = {n: p.detach().clone() for n, p in model.state_dict().items()}
    twin = _train(make_net(Twin).double(), answer, rank, world, 1)  # parameters kept fail
    return {"steps": steps + twin, "final": final}


_WATCH: list[CollectiveWatch] = []  # in a rank: the watch of the job that runs


def watch() -> CollectiveWatch:
    """In a rank: the watch of the running job's collectives."""
    return _WATCH[-1]


def check_waited(since: int, where: str, kept: list[int] | tuple = ()) -> None:
    """In a rank: raise :class:`RuleBroken` if an async collective launched since the mark
    ``since`` was not waited on by now, or its tensor written in flight, or one of an earlier
    step waited on again (``kept``: the earlier steps' calls' ``waits`` as this step began,
    :func:`waits`). ``where`` says when, e.g. "your function returned"."""
    if stale := [c for c, n in zip(watch().calls, kept, strict=False) if c.waits > n]:
        raise RuleBroken(stale_hint(stale, where))
    if written := watch().written(since):
        raise RuleBroken(written_hint(written, where))
    if unwaited := watch().unwaited(since):
        raise RuleBroken(unwaited_hint(unwaited, where))


def waits(upto: int) -> list[int]:
    """In a rank: the waits counted so far on each call before the mark ``upto``."""
    return [c.waits for c in watch().calls[:upto]]


def _watched_job(job, answer, logs, rank, world):
    """In a rank: ``job(answer, rank, world)`` watched, then every rank job's rules. The heap
    from before is frozen meanwhile (``gc.freeze``): :func:`._kit.made_since` reads the job's."""
    watching = CollectiveWatch(path=f"{logs}/rank{rank}", answer=answer)
    with watching, refused_call_named(answer), answer_graded(answer):  # in a fresh Python too
        _WATCH.append(watching)
        gc.freeze()
        try:
            record = job(answer, rank, world)
        finally:
            gc.unfreeze()
            _WATCH.pop()
    if watching.refused:  # a call the answer's own thread made, whatever it did with the error
        raise RuleBroken(watching.refused[0])
    broken = finished_rule_hint(watching.calls, watching.unwaited(), rank, world)
    if broken is not None:
        raise RuleBroken(broken)
    return record


def learner_reply(error: BaseException) -> tuple[str, str]:
    """In a rank: the learner's exception as a reply, ``("stub", its words)`` for the
    exercise's own ``raise NotImplementedError``, ``("rule", the hint)`` for a
    :class:`RuleBroken`, else ``("error", what and where)``."""
    if isinstance(error, (RuleBroken, CheckFailed)):  # a rule, or a call Python refused
        return "rule", str(error)
    frame = learner_frame(error.__traceback__)
    last = traceback.extract_tb(error.__traceback__)[-1:]
    if isinstance(error, NotImplementedError) and last and last[0] == frame:
        return "stub", str(error)
    where = f" ({describe_frame(frame)})" if frame is not None else ""
    return "error", f"{type(error).__name__}: {error}"[:600] + where


def run_ranks(answer, world=WORLD, job=_allreduce_job):
    """Run ``job(answer, rank, world)`` in ``world`` gloo ranks; each rank's record."""
    with tempfile.TemporaryDirectory(prefix="d2lgpu-calls-") as logs:
        try:
            # the time-outs as the parent reads them, so that ranks a fork server starts
            # (which import this module afresh) wait as long as forked ones
            replies = rank_replies(
                partial(_watched_job, job, answer, logs), world, COLLECTIVE_TIMEOUT_S,
                wait_s=WAIT_S, reply=learner_reply, stuck=Deadlock(logs, world),
            )  # fmt: skip
        except CannotSend as error:  # the answer cannot travel to ranks a fork server starts
            raise CheckFailed(str(error)) from None
        return records_of(replies, _hint, logs, zero_step_advice if job is _allreduce_job else None)


def records_of(replies, hint, logs=None, advice=None) -> list:
    """What each rank returned, rank 0 first, when every reply is ``"ok"``. Otherwise the
    reply :func:`d2lgpu.ranks.root_cause` blames: the exercise's stub is not attempted, a
    broken rule its hint, a rank that died, never finished or lost its peer where the ranks'
    collectives (written to ``logs``) first differ, any other failure a
    :class:`CheckFailed` with ``hint(rank, status, payload)``. ``advice``: the exercise's
    own words for "call the same collectives", if any, or a function of where the ranks
    first differ that returns them (or None)."""
    rank = root_cause(replies)
    if rank is None:
        return [record for _, record in replies]
    status, payload = replies[rank]
    if status == "stub":
        raise NotAttempted(payload)
    if status == "rule":
        raise CheckFailed(payload)
    if logs is not None and (status in ("died", "late") or lost_peer(payload)):
        if (refused := refused_hint(logs, len(replies))) is not None:
            raise CheckFailed(refused)
        mismatch = first_mismatch([read_log(Path(logs) / f"rank{r}") for r in range(len(replies))])
        if mismatch is not None:
            words = advice(mismatch) if callable(advice) else advice
            raise CheckFailed(mismatch_hint(rank, status, mismatch, words))
    raise CheckFailed(hint(rank, status, payload))


def mismatch_hint(rank, status, mismatch, advice=None) -> str:
    """The hint where the ranks' collectives differ; ``advice`` replaces its last sentence."""
    what = {"died": "died (gloo aborts a rank whose collective does not match the others')",
            "late": "never finished (it waited in a collective the others did not call)"}  # fmt: skip
    return (
        f"rank {rank} {what.get(status, 'lost its peer')}: the ranks' collectives do not match: "
        f"{mismatch}. " + (advice or "Every rank must call the same collectives, in the same order, on tensors "
           "of the same shape")
    )  # fmt: skip


def exit_hint(rank, message) -> str | None:
    """The hint for a rank whose code called ``sys.exit`` (its reply's ``message``), or None."""
    if not message.startswith("SystemExit"):
        return None
    return (
        f"rank {rank} called sys.exit ({message}): a rank that exits leaves early, and the "
        "others wait for it in their next collective. Every rank must run to the end; to "
        "refuse an input, raise an exception that says why"
    )


def _hint(rank, status, payload):
    if status == "late":
        return _HANG_HINT
    if status == "died":
        return f"rank {rank} died without a word (killed by a signal?)"
    return _error_hint(rank, payload)


_HANG_HINT = (
    "the ranks did not finish: one waited in a collective the other never called (or your "
    "function never returns). Every rank must call the same collectives, in the same order, "
    "on tensors of the same size (no `if rank == 0:` around an all_reduce)"
)


def _error_hint(rank, message):
    exited = exit_hint(rank, message)
    if exited is not None:
        return exited
    if lost_peer(message):
        return f"rank {rank}: {message}. {_HANG_HINT}"
    if "NoneType" in message:
        return (
            f"rank {rank}: {message}. Some parameters have no gradient (p.grad is None: "
            "unused in forward): skip them"
        )
    return f"rank {rank}: your function raised {message}"
