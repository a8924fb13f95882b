"""Real gloo ranks for a checker: the job they run, and the hints for what goes wrong.

:func:`run_ranks` runs a job on ``WORLD`` ranks with :func:`d2lgpu.ranks.rank_replies`, which
starts them (forked, or from a fork server with the learner's function sent by value:
:func:`d2lgpu.ranks.start_method`), joins them in a gloo group, waits for them and picks the
rank to blame (:func:`d2lgpu.ranks.root_cause`). The job here, ``10.allreduce_grads``'s,
trains :class:`Net` ``STEPS`` SGD steps on each rank's share of every batch (then
:class:`Twin` one step), calls the learner's function after each ``backward`` and sends back
the gradients before and after it, what the call kept (:mod:`._ch10_between_calls`) and the
final parameters (:func:`reference_steps`: what they should be). Another exercise passes its own
``job(answer, rank, world) -> record`` (chapter 10's DDP and ZeRO-1 by hand do).

Every job runs under a :class:`._kit_collectives.CollectiveWatch` (:func:`watch` in a rank):
each collective is recorded, and written to a file as it starts. The rules for every rank job,
checked as the job ends (:class:`RuleBroken`): no collective from a thread of the answer's
own, none left unwaited, none over a group that leaves ranks out
(:func:`._kit_collective_reads.finished_rule_hint`). A job checks its own points with
:func:`check_waited`: no call left unwaited, and no wait on a call of an earlier step.

Failures come back as :class:`CheckFailed` with a hint (:mod:`._ranks_hints`): an exception in a rank (with the
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

import torch
import torch.nn.functional as F
from torch import nn

from .._aliases import answer_graded
from ..ranks import CannotSend, lost_peer, rank_replies
from ._ch10_averaging import ZERO_STEP, HostCopies, zero_step_advice
from ._ch10_between_calls import (
    kept_numel,
    late_error_hint,
    made_in_call,
    needs_grad,
    needs_grad_hint,
)
from ._ch10_refused import AVERAGE_CLIP, clips_refused
from ._kit import Deadlock, patched, tensors_alive
from ._kit_collective_reads import finished_rule_hint, stale_hint, unwaited_hint, written_hint
from ._kit_collectives import CollectiveWatch
from ._kit_process import defaults_kept
from ._kit_seeds import reseeds_named
from ._ranks_hints import exit_hint, mismatch_hint, rank_hint, records_of
from ._util import (
    CheckFailed,
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
    "reference_steps",
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
LATE = STEPS - 1  # the step from which Net uses its layer ``unused``
COLLECTIVE_TIMEOUT_S = 15.0  # a rank waiting this long in a collective gives up
WAIT_S = 90.0  # the whole run, start to finish


class Net(nn.Module):
    """A small classifier, and a layer that forward uses only from step ``LATE`` on (the job
    sets ``late``): its grads stay None before, and a list of the parameters that have a
    gradient, made at the first call and kept, misses it there."""

    def __init__(self):
        super().__init__()
        body = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3))
        self.unused = nn.Linear(3, 3)  # first in parameters(): a loop that stops at it is seen
        self.body, self.late = body, False

    def forward(self, x):
        return self.unused(self.body(x)) if self.late else self.body(x)


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


def reference_steps():
    """One process, the global batch, the same steps: what the ranks should end with."""
    model = make_net()
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    for step in range(STEPS):
        x, y = batch(step)
        opt.zero_grad()
        model.late = step >= LATE
        F.cross_entropy(model(x), y).backward()
        opt.step()
    return {n: p.detach().clone() for n, p in model.state_dict().items()}


def _grads(model):
    return {
        n: None if p.grad is None else p.grad.detach().clone() for n, p in model.named_parameters()
    }


def _train(model, answer, rank, world, n_steps=STEPS):
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    steps, made = [], []
    for step in range(n_steps):
        x, y = batch(step)
        share = slice(rank * BATCH // world, (rank + 1) * BATCH // world)
        # new grad tensors at step 1 for the same parameters as step 0; the same at step 2
        opt.zero_grad(set_to_none=step % 2 == 1)
        model.late = step >= LATE
        begin = watch().mark()  # collectives in backward: hooks an earlier call registered
        kept = waits(begin)  # the earlier steps' calls: none is waited on in this one
        F.cross_entropy(model(x[share]), y[share]).backward()
        local = _grads(model)
        before = {n: p.detach().clone() for n, p in model.named_parameters()}
        mark, groups = watch().mark(), watch().groups_made
        watch().phase = f"at step {step}"
        alive, needs = tensors_alive(), needs_grad(model)
        try:
            reseeds = reseeds_named("your function", RuleBroken)
            with HostCopies(model) as copies, patched(*clips_refused(AVERAGE_CLIP)), reseeds:
                answer(model)
        except Exception as error:  # at LATE: what the function kept from before may not fit
            if step != LATE or isinstance(error, RuleBroken | CheckFailed) or lost_peer(str(error)):
                raise  # a peer's failure: the ranks' collectives say more
            raise RuleBroken(late_error_hint(learner_reply(error)[1], step)) from None
        made.append([r for r in made_in_call(alive) if not watch().owns(r())])
        held = kept_numel([r for refs in made for r in refs], model)  # every call's, so far
        if (frozen := needs_grad_hint(model, needs, step)) is not None:
            raise RuleBroken(frozen)
        check_waited(mark, "your function returned", kept)
        changed = [n for n, p in model.named_parameters() if not torch.equal(p, before[n])]
        calls = watch().calls[mark:]
        steps.append({"local": local, "after": _grads(model), "params_changed": changed,
                      "calls": calls, "groups_made": watch().groups_made - groups, "held": held,
                      "host_copy": copies.copied, "uncarried": copies.uncarried(calls),
                      "host_read": copies.read, "buffers_sent": copies.buffers_sent(calls),
                      "in_backward": len(watch().calls[begin:mark])})  # fmt: skip
        opt.step()
    for s, refs in zip(steps, made, strict=True):
        s["kept"] = kept_numel(refs, model)
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
    kept = defaults_kept("in a rank, your code")  # a rank's defaults, as check() keeps its own
    with watching, refused_call_named(answer), answer_graded(answer), kept:  # a fresh Python too
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
        return records_of(
            replies, rank_hint, logs, zero_step_advice if job is _allreduce_job else None
        )
