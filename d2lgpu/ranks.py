"""Gloo ranks started from a notebook: run one function on each, and count its all-reduces.

What it is for: chapter 9's tensor- and pipeline-parallel sections, whose per-rank code is
a function defined in a cell that the reader can read and change, and the checkers of
chapters 9 and 10, which run a learner's answer on real ranks.

* :func:`run_ranks` starts ``world`` processes. Each uses one CPU thread, joins a ``gloo``
  process group through a file store, calls ``fn(rank, world)``, sends back what it
  returned (pickled: tensors, numbers, dicts of them) and leaves the group. The answer
  is the list of the ranks' results, rank 0 first. An exception in a rank comes back as
  :class:`RankFailed`, with the rank and its traceback; ranks that do not finish within
  ``timeout_s`` (a collective that some rank never calls waits for it) are killed and
  :class:`RankFailed` says so.
* :func:`rank_replies` is the run itself, shared with the checkers: each rank's reply, a
  ``(status, payload)`` pair, and a ``reply`` function of the caller's that turns a rank's
  exception into one (the checkers' quotes the learner's line). :func:`root_cause` says
  which failed rank to report: the one whose own error made the others fail, not rank 0's
  "Connection closed by peer" that followed it.
* :func:`count_all_reduces` wraps ``torch.distributed.all_reduce`` while a block runs
  and records each call: the shape, the bytes and the reduction, in order.
* How a rank starts (forked, or from a fork server with the function sent by value where
  torch sees a GPU) is :mod:`d2lgpu._rank_start`'s: :func:`start_method` says why, and
  :func:`rank_processes`, :func:`join_gloo` and :func:`send_outcome` are named here too.

What it is not: a launcher for training scripts (that is ``torchrun``, through
:mod:`d2lgpu.launcher`), nor a wrapper around PyTorch's distributed API: ``fn`` calls
``torch.distributed`` itself.
"""

from __future__ import annotations

import os
import pickle
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any, NamedTuple

import torch.distributed as dist

from ._rank_start import START_ENV_VAR as START_ENV_VAR  # tests and docs: ranks.START_ENV_VAR
from ._rank_start import (
    CannotSend,
    join_gloo,
    rank_processes,
    send_outcome,
    start_method,
)
from ._validate import check_int

__all__ = [
    "AllReduceCall",
    "AllReduceLog",
    "CannotSend",
    "RankFailed",
    "Reply",
    "count_all_reduces",
    "join_gloo",
    "lost_peer",
    "rank_processes",
    "rank_replies",
    "root_cause",
    "run_ranks",
    "send_outcome",
    "start_method",
]

GRACE_S = 3.0  # once one rank has failed, how long the others get to say why they did
POLL_S = 0.25  # how often a run with a ``stuck`` test asks it
# What gloo says to a rank whose peer left or never came (its versions vary the wording): the
# error of a rank that lost its peer, a consequence of another rank's failure.
LOST_PEER = ("Timed out", "timeout", "closed by peer", "Connection reset")


class RankFailed(RuntimeError):
    """A rank raised, died, or did not finish in time; ``rank`` says which (None: unknown)."""

    def __init__(self, rank, message: str):
        super().__init__(message if rank is None else f"rank {rank}: {message}")
        self.rank = rank


class Reply(NamedTuple):
    """One rank's reply: ``status`` ``"ok"`` (``payload``: what it returned), ``"error"``
    (the message), a status of the caller's ``reply`` function, ``"died"`` (it left without
    a word) or ``"late"`` (no reply in time); ``payload`` is None for the last two."""

    status: str
    payload: Any


def lost_peer(message) -> bool:
    """Whether an error message is gloo's for a peer that left or never came."""
    return isinstance(message, str) and any(words in message for words in LOST_PEER)


def root_cause(replies) -> int | None:
    """The rank to report among ``replies`` (``(status, payload)`` pairs, rank 0 first), or
    None when every one is ``"ok"``.

    A rank's own error comes first (any status but ``"ok"``, ``"died"`` and ``"late"``,
    unless it is an ``"error"`` whose message says the peer was lost), then a rank that
    died, then a lost peer, then a rank that never replied: the others' failures follow
    from the first kinds. Among equals, the lowest rank.
    """

    def kind(status, payload) -> int:
        if status == "died":
            return 1
        if status == "late":
            return 3
        return 2 if status == "error" and lost_peer(payload) else 0

    failed = [(kind(s, p), rank) for rank, (s, p) in enumerate(replies) if s != "ok"]
    return min(failed)[1] if failed else None


def _traceback_reply(error: BaseException) -> tuple[str, str]:
    """A rank's exception as the chapters' reply: ``("error", its traceback)``."""
    return "error", "".join(traceback.format_exception(error))


def _rank_main(rank, world, store_path, fn, conn, timeout_s, reply):
    try:
        join_gloo(rank, world, store_path, timeout_s)
        try:
            outcome = ("ok", fn(rank, world))
        except BaseException as error:  # noqa: BLE001 (reported to the parent, whatever it is)
            outcome = reply(error)
        # the reply first, the group after: the other ranks lose this one (and fail in their
        # collectives) only once its own reply is on its way
        send_outcome(conn, outcome)
        dist.destroy_process_group()
    except BaseException as error:  # noqa: BLE001 (joining or sending failed)
        send_outcome(conn, reply(error))
    finally:
        conn.close()
        os._exit(0)  # leave at once: no atexit handler of the parent's runs twice


def _collect(readers, wait_s: float, stuck=None) -> list[Reply]:
    """Each reader's reply, rank 0 first; ``"late"`` where none came within ``wait_s``, or
    within :data:`GRACE_S` of the first failure, or once ``stuck()`` (asked every
    :data:`POLL_S`) says the ranks left can never finish."""
    deadline = time.monotonic() + wait_s
    replies: dict[int, Reply] = {}
    pending = dict(enumerate(readers))
    while pending and (left := deadline - time.monotonic()) > 0:
        if stuck is not None and stuck():
            break
        ready = wait(list(pending.values()), timeout=left if stuck is None else min(left, POLL_S))
        for rank in [r for r, reader in pending.items() if reader in ready]:
            reader = pending.pop(rank)
            try:
                replies[rank] = Reply(*pickle.loads(reader.recv_bytes()))
            except EOFError:
                replies[rank] = Reply("died", None)
            if replies[rank].status != "ok":
                deadline = min(deadline, time.monotonic() + GRACE_S)
    return [replies.get(rank, Reply("late", None)) for rank in range(len(readers))]


def rank_replies(
    fn, world: int, timeout_s: float, *, wait_s=None, reply=_traceback_reply, stuck=None
):
    """``fn(rank, world)`` in ``world`` gloo ranks: each rank's :class:`Reply`, rank 0 first.

    Collectives give up after ``timeout_s``; the run waits ``wait_s`` at most (default:
    ``timeout_s`` and 10 s more). ``reply(error)``, a module's function, runs in a rank
    whose ``fn`` (or its start) raised, and gives its ``(status, payload)``. ``stuck()``,
    asked every :data:`POLL_S` while ranks run, ends the wait early when it says True (the
    ranks left are ``"late"``). Ranks still running when the replies are in are killed.
    """
    wait_s = timeout_s + 10 if wait_s is None else wait_s
    with rank_processes(_rank_main, world, fn, timeout_s, reply) as readers:
        return _collect(readers, wait_s, stuck)


def run_ranks(fn, world: int = 2, timeout_s: float = 60.0) -> list:
    """``fn(rank, world)`` in ``world`` gloo ranks; what each returned, rank 0 first.

    In a notebook nothing more is needed. In a Python script, call it under
    ``if __name__ == "__main__":``: where the ranks start from a fork server (on a machine
    whose torch sees a GPU, :func:`start_method`), each rank first imports the script's main
    module, and a call at its top level would run again there.
    """
    if not callable(fn):
        raise TypeError(f"fn must be a function of (rank, world), got {type(fn).__name__}")
    check_int("world", world, minimum=1)
    if not isinstance(timeout_s, int | float) or not timeout_s > 0:
        raise ValueError(f"timeout_s must be a positive number of seconds, got {timeout_s!r}")
    replies = rank_replies(fn, world, timeout_s)
    rank = root_cause(replies)
    if rank is None:
        return [payload for _, payload in replies]
    status, payload = replies[rank]
    if status == "late":
        why = (
            f"did not finish within {timeout_s} s: did every rank call the same collectives "
            "in the same order?"
        )
    elif status == "died":
        why = "died without a word (killed by a signal?)"
        if start_method() == "forkserver":
            why += (
                '; in a Python script, call run_ranks under if __name__ == "__main__": '
                "ranks started by a fork server import the script first, and a call at its "
                "top level stops them"
            )
    else:
        why = f"raised:\n{payload}"
    raise RankFailed(rank, why)


@dataclass(frozen=True)
class AllReduceCall:
    """One ``dist.all_reduce``: the tensor's shape and bytes, and the reduction."""

    shape: tuple
    nbytes: int
    op: str


@dataclass
class AllReduceLog:
    """The all-reduces of a block, in order (:func:`count_all_reduces`)."""

    calls: list[AllReduceCall] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.calls)

    @property
    def bytes(self) -> int:
        """The bytes all-reduced, summed over the calls (each rank's tensor, once)."""
        return sum(c.nbytes for c in self.calls)


def _op_name(op) -> str:
    for name in ("SUM", "AVG", "PRODUCT", "MIN", "MAX"):
        if op == getattr(dist.ReduceOp, name, None):
            return name
    return str(op)


@contextmanager
def count_all_reduces():
    """Record every ``torch.distributed.all_reduce`` called while the block runs.

    >>> with count_all_reduces() as log:
    ...     out = model(x)
    >>> log.count, log.bytes, log.calls[0].shape

    The module's attribute is replaced while the block runs, so calls written
    ``dist.all_reduce(...)`` are seen (``torch.distributed.nn``'s too); a name imported
    with ``from torch.distributed import all_reduce`` before the block is not. Collectives
    that DTensor runs go through other functions: ``CommDebugMode`` counts those.
    """
    log = AllReduceLog()
    original = dist.all_reduce

    def counted(tensor, *args, **kwargs):
        op = kwargs.get("op", args[0] if args else dist.ReduceOp.SUM)
        log.calls.append(AllReduceCall(tuple(tensor.shape), tensor.nbytes, _op_name(op)))
        return original(tensor, *args, **kwargs)

    dist.all_reduce = counted
    try:
        yield log
    finally:
        dist.all_reduce = original
