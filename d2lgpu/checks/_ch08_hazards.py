"""``08.overlap``'s races, named for what caused them: the hints for the simulated GPU's hazards.

A race is one of :class:`d2lgpu.stream_sim.Hazard`'s kinds: a compute that may start
before its copy has landed (``read``; the hint says where the compute stream's wait is,
from the simulator's record of waits, and where it must be), a buffer overwritten or
freed while another stream may still use it (``overwrite``, ``freed``: with the streams
given to ``record_stream``, if any), memory allocated on one stream and used on another
that does not wait for the first stream's earlier work (``allocated``), and a copy to the
host read before a sync (``host read``). The hints name the mistake and the API, not code
to paste.

:data:`READ_NAMES` says what a host read of device data was, for both of chapter 8's
exercises; ``08.copy_back``'s races have their own hints (:mod:`._ch08_copy_races`).

What it is not: the checker; :mod:`d2lgpu.checks.ch08_streams` runs the answer.
"""

from __future__ import annotations

from ._ch08_rules import other_stream_waited
from ._util import CheckFailed

__all__ = ["check_hazards", "READ_NAMES"]

READ_NAMES = {
    "__repr__": "print() of a device tensor",
    "__str__": "str() of a device tensor",
    "__format__": "an f-string or print() of a device tensor",
    "__float__": "float() of a device tensor",
    "__int__": "int() of a device tensor",
    "__bool__": "an `if` on a device tensor",
}
"""What the host did, by the name of the tensor method that read device data."""


_HAZARDS = {
    "read": (
        "compute of batch {batch} may start before its copy has finished: {why}. On the "
        "simulated GPU {wrong} of {n} results were computed from memory the copy had not "
        "filled yet{luck}. {fix}"
    ),
    "overwrite": (
        "the memory of batch {batch} may be overwritten while a compute on another stream may "
        "still read it: make the copy wait for that compute (an event recorded after it, which "
        "the copy stream waits for), or copy into fresh tensors"
    ),
    "freed": (
        "the device copy of batch {batch} was freed (its last reference dropped) while "
        "{user} may still be reading it. It was allocated on {made_on}, so the caching "
        "allocator may give its memory to the next allocation there at once. {fix}"
    ),
    "allocated": (
        "batch {batch}'s device memory was allocated on {made_on} while work queued there "
        "before ({earlier}) may still run, and {user} does not wait for that work: the "
        "caching allocator gives a stream memory that is free in that stream's order only, "
        "so the copy may write over memory the earlier work still reads. Make the copy "
        "stream wait for {made_on} after allocating and before copying (wait_stream; with "
        "every buffer allocated before the loop, one wait does), or allocate on the copy "
        "stream and record_stream the tensor for the compute stream"
    ),
    "host read": (
        "the host read a copy to the host (of batch {batch}) before a sync: x.to('cpu', "
        "non_blocking=True) returns before the data has landed. Return the results on the "
        "device, or wait for an event recorded after the copy before reading it"
    ),
}
_WAIT = (
    "Make the compute stream wait, on the GPU, for the copy (wait_stream, or wait_event on "
    "an event recorded after the copy) before computing on the batch"
)


def _read_why(gpu, hazard) -> tuple[str, str]:
    """Why the compute of ``hazard`` did not wait for its copy, and the fix: where the wait
    is, and where it must be."""
    copy, compute, batch = hazard.first, hazard.second, hazard.batch
    a, b, waits = compute.stream, copy.stream, gpu.waits
    before = [w for w in waits if w.stream is a and w.at <= compute.id]
    on_copies = [w for w in before if w.on is b]
    if on_copies and on_copies[-1].at <= copy.id:
        return (
            f"the compute stream waited for {b.name} before batch {batch}'s copy was queued "
            "there, and a wait covers only what was queued before it",
            "Make it wait after queueing the copy, before computing on the batch",
        )
    if on_copies:
        return (
            f"the compute stream waited for an event recorded on {b.name} before batch "
            f"{batch}'s copy was queued (an earlier batch's, or one recorded before the copy)",
            "Record each batch's event after its copy, and wait for that batch's own event",
        )
    if any(w.stream is a and w.covers.get(b.name, -1) >= copy.id for w in waits):
        return (
            f"the compute stream waits for its copy only after compute(batch {batch}) was "
            "queued, and a wait holds back only the work queued after it",
            "Make the compute stream wait before calling compute",
        )
    if any(w.on is a for w in before):
        return (
            "the event the compute stream waited for was recorded on the compute stream "
            "itself (record() uses the current stream: outside the side stream's `with` "
            "block that is the compute stream), so it marks nothing of the copies",
            "Record it on the copy stream, after the copy",
        )
    other = [w.on for w in before if w.on is not None and w.on is not b]
    if other:
        return (
            f"the compute stream waited for {other[-1].name}, but batch {batch} was copied "
            f"on {b.name}",
            "Wait for the stream (or an event of the stream) that the copy ran on",
        )
    if any(w.stream is b and w.on is b for w in waits):
        return (
            "the wait was made by the copy stream, for its own event: event.wait() and "
            "wait_event act on the stream they are given (by default the current one, the "
            "copy stream inside its `with` block), not on the compute stream",
            "Make the compute stream wait for the copy's event",
        )
    if any(w.stream is a and w.on is None for w in waits):
        return (
            "the compute stream waited for an event that was never recorded, which waits "
            "for nothing",
            "Record the event on the copy stream after the copy, then wait for it",
        )
    if any(w.stream is b and w.on is a and w.at <= compute.id for w in waits):
        return (
            "the only wait between the two streams makes the copy stream wait for the compute "
            "stream; nothing makes the compute stream wait for the copy",
            _WAIT,
        )
    elsewhere = other_stream_waited(gpu, a, b, copy.id)
    if elsewhere is not None:
        return elsewhere
    return "the compute stream does not wait for the copy stream", _WAIT


def _freed_fix(hazard) -> str:
    user = hazard.first.stream.name
    if hazard.recorded:
        return (
            f"record_stream was given {', '.join(hazard.recorded)}, but the stream that used "
            f"it besides {hazard.made_on} is {user}: record_stream takes the stream that uses "
            "the tensor"
        )
    return (
        f"Tell the allocator that {user} uses it (record_stream), or keep a reference until "
        f"{hazard.made_on} has waited for {user} (wait_stream) before returning"
    )


def check_hazards(gpu, n: int) -> None:
    """Fail with the first race the simulated GPU recorded, named for what caused it."""
    if not gpu.hazards:
        return
    hazard = gpu.hazards[0]
    wrong = sum(
        bool(op.flags.get("stale"))
        for op in [op for op in gpu.ops if op.kind == "kernel" and op.label.startswith("compute")]
    )
    why, fix = _read_why(gpu, hazard) if hazard.kind == "read" else ("", "")
    second = hazard.second
    user = hazard.first.stream.name if second is None else f"{second.label} on {second.stream.name}"
    raise CheckFailed(
        _HAZARDS[hazard.kind].format(
            batch=hazard.batch, wrong=wrong, n=n, why=why, made_on=hazard.made_on, user=user,
            luck=" (the copies happened to land in time there; a GPU does not promise it)"
            if wrong == 0 else "",
            fix=_freed_fix(hazard) if hazard.kind == "freed" else fix,
            earlier=hazard.first.label,
        )
    )  # fmt: skip
