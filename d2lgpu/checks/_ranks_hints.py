"""What a checker's gloo ranks' replies say, read in the parent: :func:`records_of` returns what
each rank's job recorded, or raises the hint for the rank that
:func:`d2lgpu.ranks.root_cause` blames (the rank whose own error made the others lose their
peer, not a peer's "connection reset"); the words for ranks whose collectives do not match
(:func:`mismatch_hint`), a rank that called ``sys.exit`` (:func:`exit_hint`), and the rest
(:func:`rank_hint`).
"""

from __future__ import annotations

from pathlib import Path

from ..ranks import lost_peer, root_cause
from ._kit_collective_reads import first_mismatch, read_log, refused_hint
from ._util import CheckFailed, NotAttempted

__all__ = ["HANG_HINT", "exit_hint", "mismatch_hint", "rank_hint", "records_of"]


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


def rank_hint(rank, status, payload) -> str:
    """The hint for a rank that replied ``status`` (``"late"``, ``"died"`` or ``"error"``, with
    ``payload``, its words) where no rule or record says more."""
    if status == "late":
        return HANG_HINT
    if status == "died":
        return f"rank {rank} died without a word (killed by a signal?)"
    return _error_hint(rank, payload)


HANG_HINT = (
    "the ranks did not finish: one waited in a collective the other never called (or your "
    "function never returns). Every rank must call the same collectives, in the same order, "
    "on tensors of the same size (no `if rank == 0:` around an all_reduce)"
)


def _error_hint(rank, message):
    exited = exit_hint(rank, message)
    if exited is not None:
        return exited
    if lost_peer(message):
        return f"rank {rank}: {message}. {HANG_HINT}"
    if "NoneType" in message:
        return (
            f"rank {rank}: {message}. Some parameters have no gradient (p.grad is None: "
            "unused in forward): skip them"
        )
    return f"rank {rank}: your function raised {message}"
