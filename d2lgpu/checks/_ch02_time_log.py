"""The order of the calls ``02.time_fn``'s answer made on its simulated device.

:func:`check_log` reads the log of a :class:`~.ch02_time_fn.FakeAsyncDevice` (``work``,
``sync``, ``clock`` in the order they were called) and names the first step out of the
prompt's order: a warm-up and a sync before the first clock read, then per measurement one
work() and a sync() after it between two clock reads (one read may end a measurement and
start the next). It does not judge the returned number (``ch02_time_fn`` does).
:func:`host_clocks_read` notes the reads of the ``time`` module's clocks while the answer
runs: a clock it was not given, whose reads mixed with the given one's make no interval.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from ._kit import patched
from ._util import CheckFailed

__all__ = ["check_log", "host_clocks_read", "mixed_clocks_hint"]

_CLOCKS: tuple[str, ...] = ("perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns")
_CLOCKS += ("time", "time_ns", "process_time", "process_time_ns")


@contextmanager
def host_clocks_read():
    """Yield the list of the ``time`` clocks read, by name, on this thread while the block runs."""
    read: list[str] = []
    here = threading.get_ident()

    def noted(name: str, original):
        def clock(*args, **kwargs):
            if threading.get_ident() == here:
                read.append(name)
            return original(*args, **kwargs)

        return clock

    with patched(*((time, name, noted(name, getattr(time, name))) for name in _CLOCKS)):
        yield read


def mixed_clocks_hint(read: list[str]) -> str:
    """The hint for a wrong time from an answer that read ``read``, clocks it was not given."""
    return (
        f"time_fn returned a wrong time and read time.{read[0]}() besides the clock it was "
        "given: an interval between a read of one clock and a read of another measures "
        "nothing (their zeros differ). Read every time with the clock you are given"
    )


def check_log(log: list[str], repeats: int) -> None:
    """The order of the calls: warm-up and sync before timing, then clock-work-sync-clock."""
    if "clock" not in log:
        raise CheckFailed(
            "time_fn never called clock(): read the time with the clock you were given "
            "(the checker's simulated device keeps its own time, which time.perf_counter() "
            "cannot see)"
        )
    if "sync" not in log and "work" in log:
        raise CheckFailed(
            "time_fn never called sync(): wait with the sync you were given, which waits "
            "for the device the work runs on (the checker's simulated device keeps its own "
            "queue, which torch.cuda.synchronize() cannot see), after the warm-up call and "
            "after every timed call, before the clock is read"
        )
    first_clock = log.index("clock")
    measured = log[first_clock:].count("work")
    # What ran between two clock reads, and after the last one
    segments: list[list[str]] = [[]]
    for event in log[first_clock + 1 :]:
        if event == "clock":
            segments.append([])
        else:
            segments[-1].append(event)
    if "work" not in log[:first_clock]:
        raise CheckFailed(
            "the first clock read came before any warm-up call: call work() once and sync() "
            "before you start measuring; the first call pays one-off costs (CUDA context, "
            "library handles, caches) that are not part of the work's time"
            + (
                ". A first call that is timed is no warm-up, whether its time is kept or thrown "
                "away: the clock is read before it"
                if "work" in segments[0] and measured > repeats
                else ""
            )
        )
    last_warmup = max(i for i in range(first_clock) if log[i] == "work")
    if (
        "sync" in log[log.index("work") : last_warmup]
        and "sync" not in log[last_warmup:first_clock]
    ):
        raise CheckFailed(
            "time_fn called work() before the clock read that starts its measurement (work(), "
            "clock(), sync(), clock()): work() returns once the job is launched, so the "
            "interval leaves out the launch, and whatever of the job ran before the read. Read "
            "clock() first, then call work() and sync(), then read clock() again"
        )
    if "sync" not in log[last_warmup:first_clock]:
        raise CheckFailed(
            "after the warm-up call, call sync() before the first clock read: otherwise the "
            "first measurement also waits for the warm-up work"
        )
    # Between two clock reads: at most one work(), and a sync() after it.
    if crowded := next((n for seg in segments if (n := seg.count("work")) > 1), None):
        raise CheckFailed(
            f"time_fn called work() {crowded} times between two clock reads: time each call "
            "on its own (a clock read, one work(), sync(), a clock read) and return the median "
            "of those times"
        )
    if measured != repeats:
        raise CheckFailed(
            f"time_fn called work() {measured} times after its first clock read, for "
            f"repeats={repeats}: time exactly `repeats` calls, one per measurement (use the "
            "argument, not a fixed number)"
        )
    for between in segments:
        if "work" in between and "sync" not in between[between.index("work") :]:
            raise CheckFailed(
                "a clock read followed work() with no sync() in between: work() only queues "
                "the job and returns, so the clock measured the launch (or, with sync() "
                "before work(), the previous call): call sync() after work() and before the "
                "clock read that ends each measurement"
            )
