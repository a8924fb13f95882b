"""The parent's reading of what :class:`._kit_collectives.CollectiveWatch` recorded in the
ranks: :func:`read_log` (a rank's file of calls, as they started), :func:`first_mismatch`
(where the ranks' collectives first differ), :func:`outside_group`, :func:`unwaited_hint`,
:func:`stale_hint` and :func:`finished_rule_hint` (the rules of every rank job, as it ends).
Plain functions of the records, which a test calls in its own process."""

from __future__ import annotations

import os
from pathlib import Path

from ._kit_collectives import Call, describe

__all__ = [
    "finished_rule_hint",
    "first_mismatch",
    "outside_group",
    "read_log",
    "refused_hint",
    "stale_hint",
    "unwaited_hint",
    "written_hint",
]


def read_log(path) -> list[str]:
    """The calls a rank's watch wrote to ``path`` (none if it wrote nothing)."""
    return Path(path).read_text().splitlines() if os.path.exists(path) else []


def refused_hint(logs, world: int) -> str | None:
    """The hint of the first call a rank's watch refused (a collective from a thread of the
    answer's own), as it wrote it beside its log in ``logs``; None when none was refused."""
    for rank in range(world):
        path = Path(logs) / f"rank{rank}.refused"
        if path.exists():
            return path.read_text()
    return None


def first_mismatch(logs: list[list[str]]) -> str | None:
    """Where the ranks' collectives (``kind [shape]``, rank 0 first) first differ, in words
    (a rank that called fewer has ``none`` there); None when every rank called the same."""
    for i in range(max((len(log) for log in logs), default=0)):
        seen = [log[i] if i < len(log) else None for log in logs]
        if len(set(seen)) > 1:
            each = "; ".join(f"rank {r}: {s or 'none'}" for r, s in enumerate(seen))
            return f"their collective number {i + 1} differs ({each})"
    return None


def outside_group(calls: list[Call], world: int) -> Call | None:
    """The first call over a group that leaves out some of the ``world`` ranks, or None."""
    return next((c for c in calls if c.group is not None and len(c.group) < world), None)


def unwaited_hint(calls: list[Call], where: str) -> str:
    """The hint for async calls nobody waited on before ``where`` (e.g. "your function
    returned"), or, where each was waited on, whose ``then()`` futures nobody waited on."""
    bare = [c for c in calls if not c.waits]
    if not bare:
        return (
            f"{len(calls)} collective(s) had a callback chained with then() whose future was "
            f"never waited on before {where}, the first {describe(calls[0])}: a wait on the "
            "collective's own handle or future can return before the callback has run, so "
            "the callback's work may not be done yet. Wait on the future that then() returns "
            "(fut.then(callback).wait(), or torch.futures.wait_all of those futures)"
        )
    return (
        f"{len(bare)} collective(s) launched with async_op=True were never waited on before "
        f"{where}, the first {describe(bare[0])}: the tensor may not hold the result yet. "
        "Keep each handle and call handle.wait() (or wait on handle.get_future(), or "
        "torch.futures.wait_all) before the tensor is used"
    )


def written_hint(calls: list[Call], where: str) -> str:
    """The hint for async calls whose tensor was written before their wait, seen when
    ``where`` ("your function returned")."""
    return (
        f"{len(calls)} collective(s) launched with async_op=True had their tensor written "
        f"before the wait on them (seen when {where}), the first {describe(calls[0])}: until the "
        "wait returns, the collective reads and writes that memory, so a write there (a "
        "buffer reused for the next one, a copy or a division before the wait) races it, and "
        "the wait then leaves whichever came last. Give each collective in flight a tensor of "
        "its own, and write into it only after its wait"
    )


def stale_hint(calls: list[Call], where: str) -> str:
    """The hint for async calls of earlier steps waited on again before ``where``."""
    return (
        f"{len(calls)} collective(s) launched in an earlier step were waited on again before "
        f"{where}, the first {describe(calls[0])}: the list of handles is never cleared, so "
        "it keeps every step's handles, and the gradients they hold, alive, and each step "
        "waits on all of them again. Keep this step's handles only: clear the list after "
        "the waits (or make a new one in each call)"
    )


def finished_rule_hint(calls, unwaited, rank, world) -> str | None:
    """The hint for a rule of every rank job that rank ``rank`` of ``world`` broke by the
    time its job ended, or None: ``calls`` are its collectives, ``unwaited`` the async ones
    it never waited on. A collective over a group that leaves ranks out comes first."""
    outside = outside_group(calls, world)
    if outside is not None:
        members = "" if outside.group else f" (rank {rank} is not in it: the call did nothing)"
        return (
            f"rank {rank} of {world} called {describe(outside)} over a group of ranks "
            f"{list(outside.group or ())}{members}: ranks written in leave some out. Reduce "
            "over every rank: the default group, or one dist.new_group(list(range(dist."
            "get_world_size()))) made once"
        )
    if unwaited:
        return unwaited_hint(unwaited, f"rank {rank} finished")
    return None
