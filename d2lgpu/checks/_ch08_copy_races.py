"""``08.copy_back``'s races and early reads, named for what caused them.

:func:`check_copy_back_hazards` names the simulated GPU's hazards in a run of
``pipelined_to_host``: a compute or a copy back that does not wait for what it reads,
device memory freed while another stream may use it (``record_stream``).
:func:`check_landed` names a result handed to ``consume``, or a buffer read, before the
host knew its copy had landed.

What it is not: the checker; :mod:`d2lgpu.checks.ch08_copy_back` runs the answer.
"""

from __future__ import annotations

from ._ch08_rules import other_stream_waited
from ._util import CheckFailed

__all__ = ["check_copy_back_hazards", "check_landed"]


def check_copy_back_hazards(run) -> None:
    """``08.copy_back``'s races, in the order the hints name them."""
    for hazard in run.gpu.hazards:
        first, second = hazard.first, hazard.second
        elsewhere = None
        if hazard.kind == "read" and second is not None:
            elsewhere = other_stream_waited(run.gpu, second.stream, first.stream, first.id)
        if elsewhere is not None:
            what = "compute" if second.kind == "kernel" else "the copy to the host"
            raise CheckFailed(
                f"{what} of batch {hazard.batch} may start before what it reads is written: "
                f"{elsewhere[0]}. {elsewhere[1]}"
            )
        if hazard.kind == "read" and second is not None and second.kind == "kernel":
            raise CheckFailed(
                f"compute of batch {hazard.batch} may start before its copy to the device has "
                "finished: the compute stream does not wait for the copy. Make the GPU wait "
                "(wait_event on an event recorded after the copy, or wait_stream), not the host"
            )
        if hazard.kind == "read" and second is not None:
            reader, writer = second.stream.name, first.stream.name
            early = any(w.stream is second.stream and w.on is first.stream for w in run.gpu.waits)
            why = (
                f"{reader}'s waits for {writer} do not cover compute {hazard.batch}: a wait "
                "(wait_stream, or wait_event on an event recorded then) covers only the work "
                f"queued on {writer} before it, and holds only the work queued on {reader} "
                "after it"
                if early
                else f"{reader} does not wait for {writer}"
            )
            raise CheckFailed(
                f"the copy of result {hazard.batch} to the host may start before compute "
                f"{hazard.batch} has finished: {why}, so on the simulated GPU it copied memory "
                "the compute had not written yet. Make the stream that copies back wait for the "
                "compute on the GPU once it is queued and before the copy is (wait_stream, or "
                "wait_event on an event recorded after the compute)"
            )
        given = _recorded_elsewhere(hazard, first) if hazard.kind == "freed" else ""
        if hazard.kind == "freed" and first.flags.get("direction") == "d2h":
            raise CheckFailed(
                f"result {hazard.batch}'s device memory was freed (its last reference dropped) "
                f"while its copy to the host on {first.stream.name} may still read it: the "
                f"caching allocator may hand it to the next compute at once.{given} Call "
                "record_stream with the stream that copies back, or keep the result until "
                "that copy is known to be done"
            )
        if hazard.kind == "freed":
            raise CheckFailed(
                f"the device copy of batch {hazard.batch} was freed (its last reference "
                f"dropped) while {first.label} on {first.stream.name} may still read it: the "
                f"caching allocator may give its memory to the next copy at once.{given} Call "
                "record_stream with the stream that reads it, or keep it until that work is done"
            )
        if hazard.kind != "host read":  # the host's early reads: check_landed names them
            raise CheckFailed(f"a race on the simulated GPU: {hazard}")


def check_landed(run) -> None:
    """No result handed to ``consume``, nor a buffer read, before its copy is known to have landed."""
    for c in run.consumed:
        if not c["landed"]:
            raise CheckFailed(
                f"result {c['index']} was handed to consume before the host knew that its copy "
                "had landed: a non-blocking copy to the host returns at once, and the buffer "
                "holds the result only once the copy is done. Before consume, make the host "
                "wait for that copy, and only for it (synchronize an Event recorded after it, "
                "on the stream that made it)"
            )
    early = [h for h in run.gpu.hazards if h.kind == "host read"]
    if early:  # consume's own reads waited (above): this one came from elsewhere
        raise CheckFailed(
            f"the host read a buffer while the copy of result {early[0].batch} into it may "
            "still run (outside consume: a print, a clone, a write): a buffer is the host's "
            "only between the wait for its copy and the return of consume"
        )


def _recorded_elsewhere(hazard, reader) -> str:
    """`` record_stream was given ...`` where the freed tensor was recorded for other streams
    than the one of ``reader``, the op that still read it; else nothing."""
    if not hazard.recorded:
        return ""
    return (
        f" record_stream was given {', '.join(hazard.recorded)}, not {reader.stream.name}, "
        f"where {reader.label} reads it: record_stream takes the stream that uses the tensor."
    )
