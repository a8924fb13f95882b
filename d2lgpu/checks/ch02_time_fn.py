"""Checker ``02.time_fn``: a hand-written timer, against a simulated asynchronous device.

The answer ``time_fn(work, sync, clock, repeats)`` times a :class:`FakeAsyncDevice`,
whose ``work()`` returns at once while its job runs on in (simulated) time, whose
``sync()`` waits for the job, and whose ``clock()`` the checker controls. A timer
that forgets to sync measures only the launch, and one that reads the clock before
warming up is seen in the log of calls. No GPU is needed: the check is about *when*
things happen, not how fast.
"""

from __future__ import annotations

import inspect
import math
import statistics
import time

import torch

from ..timing import format_seconds
from ._ch02_time_cuda import check_given_sync_used
from ._ch02_time_log import check_log, host_clocks_read, mixed_clocks_hint
from ._util import CheckFailed

__all__ = ["FakeAsyncDevice", "check_time_fn"]


class FakeAsyncDevice:
    """A simulated asynchronous device with a clock the checker controls.

    ``work()`` queues a job and returns after ``launch_s``, like a CUDA kernel
    launch; the very first job also pays ``cold_s`` (context creation, library
    handles). Job ``k`` takes ``seconds * pattern[k % len(pattern)]``: the
    default pattern has a fast call (x0.8) and a slow one (x5, a noisy
    neighbour) in every four, so the median is ``seconds`` while the mean, the
    minimum and the maximum are not. ``sync()`` advances the clock to the end
    of the queued work; ``clock()`` reads it. ``log`` lists the calls in order
    and ``durations`` the length of every job.
    """

    def __init__(self, seconds, launch_s=10e-6, cold_s=0.1, pattern=(1.0, 0.8, 1.0, 5.0)):
        self.seconds, self.launch_s, self.cold_s, self.pattern = seconds, launch_s, cold_s, pattern
        self.now = 1000.0  # an arbitrary origin: only differences mean anything
        self.busy_until = self.now
        self.durations: list[float] = []
        self.log: list[str] = []
        self.host_reads: list[str] = []  # the time module's clocks the answer read (its own)

    def work(self) -> None:
        self.log.append("work")
        k = len(self.durations)
        duration = self.seconds * self.pattern[k % len(self.pattern)]
        self.durations.append(duration)
        if k == 0:
            duration += self.cold_s
        self.busy_until = max(self.now, self.busy_until) + duration
        self.now += self.launch_s

    def sync(self) -> None:
        self.log.append("sync")
        self.now = max(self.now, self.busy_until)

    def clock(self) -> float:
        self.log.append("clock")
        return self.now


def _as_seconds(result) -> float:
    if isinstance(result, torch.Tensor) and result.numel() == 1:
        result = result.item()
    if isinstance(result, bool) or not isinstance(result, int | float):
        raise CheckFailed(
            f"time_fn returned a {type(result).__name__}: return the median seconds per call "
            "as one float (statistics.median of the list of times)"
        )
    result = float(result)
    if not math.isfinite(result) or result <= 0:
        raise CheckFailed(
            f"time_fn returned {result}: a time must be a finite number > 0; check that the "
            "list of times is not empty and that each time is end - start of one call"
            + (
                "; and do not round it (2 ms rounded to 2 decimal places is 0)"
                if result == 0
                else ""
            )
        )
    return result


def _run_timer(answer, device: FakeAsyncDevice, repeats: int) -> float:
    with host_clocks_read() as device.host_reads:
        raw = answer(device.work, device.sync, device.clock, repeats)
    if len(device.durations) > repeats and isinstance(raw, float | int):
        times = device.durations[-repeats:]
        grouped, median = statistics.median_grouped(times), statistics.median(times)
        if abs(raw - grouped) <= 1e-9 and abs(grouped - median) > 0.02 * median:
            raise CheckFailed(
                f"time_fn returned {raw:.6g}, which is statistics.median_grouped of the "
                "per-call times: it takes the times as classes 1 wide (1 s) and interpolates "
                "inside the middle one, so times of a few ms come out off by up to half a "
                "second, even negative. Return statistics.median of the times"
            )
    result = _as_seconds(raw)
    check_log(device.log, repeats)
    return result


def _statistic_hint(got: float, times: list[float]) -> str | None:
    """Name the statistic or unit that ``got`` is, if it is a wrong one."""
    median = statistics.median(times)
    candidates = [
        (
            "the mean",
            statistics.fmean(times),
            "return the median (statistics.median), which a few slow calls do not move",
        ),
        (
            "the fastest call (min)",
            min(times),
            "return the median: the minimum hides how long a typical call takes",
        ),
        ("the slowest call (max)", max(times), "return the median"),
        ("the sum of all calls", sum(times), "return the median time of one call"),
        (
            "the median in milliseconds",
            median * 1e3,
            "return seconds (the clock's unit): do not multiply by 1000",
        ),
        ("the median in microseconds", median * 1e6, "return seconds (the clock's unit)"),
        *(
            (
                f"1/{int(scale):,} of the median",
                median / scale,
                "the clock counts seconds, so clock() - start is a time in seconds already: "
                "return it as it is, with no conversion from another unit (ns, us, ms)",
            )
            for scale in (1e3, 1e6, 1e9)
        ),
        (
            f"1/{len(times)} of the median",
            median / len(times),
            "the median of the per-call times is already the time of one call: do not divide "
            "it by repeats",
        ),
    ]
    rounded = _rounded_hint(got, median)
    if rounded:
        return rounded
    for what, value, fix in candidates:
        if abs(value - median) > 0.05 * median and abs(got - value) <= 0.02 * value:
            return f"time_fn returned {got:.6g}, which is {what} of the calls: {fix}"
    for k in range(len(times) - 1, 1, -1):  # the median of the k fastest: the slow dropped
        fast = statistics.median(sorted(times)[:k])
        if abs(fast - median) > 0.05 * median and abs(got - fast) <= 0.02 * fast:
            return (
                f"time_fn returned {format_seconds(got)}, the median of the {k} fastest of "
                f"the {len(times)} calls: the slowest were dropped before the median, which "
                "makes it too low whenever several calls are slow. The median already ignores "
                "a few slow calls: return statistics.median of every per-call time"
            )
    return None


def _rounded_hint(got: float, median: float) -> str | None:
    """Name a result that is the median rounded to a number of decimals (of seconds)."""
    for places in range(7):
        value = round(median, places)
        if abs(got - value) <= 1e-12 and abs(value - median) > 0.02 * median:
            return (
                f"time_fn returned {got:.6g} s, the median ({format_seconds(median)}) rounded to "
                f"{places} decimal place(s): a call shorter than a millisecond then reads as "
                "another time, or 0. Return the median unrounded, and round only where you "
                "print it"
            )
    return None


def check_time_fn(answer, passed):
    """``time_fn(work, sync, clock, repeats)`` against a simulated asynchronous device."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('02.time_fn', time_fn)")
    job = 2e-3
    device = FakeAsyncDevice(job)
    got = _run_timer(answer, device, repeats=5)
    passed.append(
        "warm-up: work() and sync() ran before the first clock read; then exactly `repeats` "
        "calls, each between two clock reads with a sync() after it"
    )
    measured = device.durations[-5:]
    if device.host_reads and abs(got - job) > 0.05 * job:
        raise CheckFailed(mixed_clocks_hint(device.host_reads))
    hint = _statistic_hint(got, measured)
    if hint:
        raise CheckFailed(hint)
    if got < 0.25 * job:
        raise CheckFailed(
            f"time_fn returned {format_seconds(got)} for work that takes {format_seconds(job)} (its launch takes "
            f"{format_seconds(device.launch_s)}): work() only queues the job and returns; call sync() "
            "after work() and before the clock read that ends each measurement"
        )
    if abs(got - job) > 0.05 * job:
        raise CheckFailed(
            f"time_fn returned {format_seconds(got)} for calls whose median is {format_seconds(job)} (one in four "
            f"takes {format_seconds(job * 5)}, one {format_seconds(job * 0.8)}): return the median of the "
            "per-call times, in seconds"
        )
    passed.append(
        "a 2 ms asynchronous job measures 2 ms, not its 10 us launch: time_fn syncs before "
        "reading the clock"
    )
    passed.append("one fast and one slow call in four do not move the result: it is the median")
    # the times of every call so far, to see times kept between calls
    history = [measured, *_check_measures_again(answer)]
    for job, repeats in ((30e-3, 3), (5e-3, 2), (7e-3, 1)):
        steady = FakeAsyncDevice(job, pattern=(1.0,)) if repeats < 3 else FakeAsyncDevice(job)
        got = _run_timer(answer, steady, repeats=repeats)
        history.append(steady.durations[-repeats:])
        if abs(got - job) > 0.05 * job:
            raise CheckFailed(
                _kept_hint(got, history)
                or f"with a {format_seconds(job)} job and repeats={repeats}, time_fn returned "
                f"{format_seconds(got)}: sync after each work() (not before it), and use the "
                "arguments you are given, nothing fixed"
            )
    passed.append("30 ms, 5 ms and 7 ms jobs measure right with repeats=3, 2 and 1")
    _check_even_repeats(answer, history)
    passed.append(
        "with repeats=4 the result is the mean of the two middle times, as statistics.median"
    )
    check_given_sync_used(answer, _run_timer, FakeAsyncDevice(2e-3), 2e-3)
    passed.append("where torch sees a GPU too, the given sync() and clock() time the work")
    _check_defaults(answer)
    passed.append("the defaults are the prompt's: clock=time.perf_counter, repeats=5")


def _kept_hint(got: float, history: list[list[float]]) -> str | None:
    """Name times kept from earlier calls, if ``got`` is the median of every call's times."""
    everything = [t for times in history for t in times]
    if len(history) < 2 or abs(got - statistics.median(everything)) > 0.02 * got:
        return None
    return (
        f"time_fn returned {format_seconds(got)}, the median of this call's times together "
        "with those of earlier calls: the list of times outlives the call (a list made outside "
        "the function, or a default argument times=[]); start a new list in every call"
    )


def _check_even_repeats(answer, history: list[list[float]]) -> None:
    """With an even number of times, the median is the mean of the two middle ones."""
    device = FakeAsyncDevice(4.1e-3, pattern=(1.0, 0.8, 1.2, 3.0))  # none a round number
    got = _run_timer(answer, device, repeats=4)
    times = sorted(device.durations[-4:])
    history.append(times)
    median = statistics.median(times)
    if abs(got - median) <= 0.02 * median:
        return
    rounded = _rounded_hint(got, median)
    if rounded:
        raise CheckFailed(rounded)
    shown = ", ".join(format_seconds(t) for t in times)
    middle = {"the lower": times[1], "the upper": times[2]}
    which = next((k for k, v in middle.items() if abs(got - v) <= 0.02 * v), None)
    if which is None:
        raise CheckFailed(
            _kept_hint(got, history)
            or f"with repeats=4 and times {shown}, time_fn returned {format_seconds(got)}, "
            f"where their median is {format_seconds(median)}: return statistics.median of "
            "the per-call times"
        )
    raise CheckFailed(
        f"with repeats=4 and times {shown}, time_fn returned {format_seconds(got)}, {which} "
        f"of the two middle times: with an even number of times the median is the mean of "
        f"the two middle ones, {format_seconds(median)}. statistics.median does that; "
        "sorted(times)[n // 2] takes the upper one, and torch.median the lower one"
    )


def _check_measures_again(answer) -> list[list[float]]:
    """A second call with the same work, sync and clock (the same objects, so the same ids)
    warms up and measures again; the times of both calls."""
    device = FakeAsyncDevice(3e-3, pattern=(1.0,))
    calls = (device.work, device.sync, device.clock)  # held: one id each for both calls
    _as_seconds(answer(*calls, 3))
    check_log(device.log, 3)
    first, timed = len(device.log), device.durations[-3:]
    device.seconds = 6e-3  # the same work, grown: a result kept from the first call is stale
    again = answer(*calls, 3)
    if "work" not in device.log[first:]:
        shown = format_seconds(again) if isinstance(again, float) else repr(again)
        raise CheckFailed(
            f"a second call of time_fn with the same work, sync and clock returned {shown} "
            "without calling work() (the work had grown from 3 ms to 6 ms): a result kept "
            "from the first call (functools.lru_cache / cache, or a dict keyed on work) is "
            "stale once the work or the machine changes, and keeps every work (and its "
            "tensors) alive. Time the work in every call"
        )
    check_log(device.log[first:], 3)
    return [timed, device.durations[-3:]]


def _check_defaults(answer) -> None:
    """A default that differs from the prompt's signature, where the signature can be read
    (a parameter without a default is left alone: every call above passed all four)."""
    try:
        parameters = inspect.signature(answer).parameters
    except (TypeError, ValueError):
        return  # a callable whose signature cannot be read: its calls were checked above
    for name, wanted in (("clock", time.perf_counter), ("repeats", 5)):
        default = getattr(parameters.get(name), "default", inspect.Parameter.empty)
        if default is inspect.Parameter.empty or default is wanted or default == wanted:
            continue
        raise CheckFailed(
            f"time_fn's {name} has the default {getattr(default, '__name__', default)}: keep "
            "the prompt's signature, time_fn(work, sync, clock=time.perf_counter, repeats=5), "
            + (
                "not None replaced inside: the signature then hides what time_fn(work, sync) does"
                if default is None
                else "so that time_fn(work, sync) times 5 calls with time.perf_counter"
            )
        )
