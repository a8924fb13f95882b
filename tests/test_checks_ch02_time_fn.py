"""The checker of 02.time_fn: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

import statistics
import time

import pytest
import torch
from grading_helpers import assert_fails, assert_passes


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


def test_time_fn_reference_passes():
    assert_passes("02.time_fn", time_fn)


def test_time_fn_without_sync_is_rejected():
    def no_sync(work, sync, clock, repeats=5):
        work()
        sync()
        times = []
        for _ in range(repeats):
            start = clock()
            work()
            times.append(clock() - start)
        return statistics.median(times)

    assert_fails("02.time_fn", no_sync, "work() only queues the job", "call sync() after work()")


def test_time_fn_syncing_only_before_the_work_is_rejected():
    def sync_first(work, sync, clock, repeats=5):
        work()
        sync()
        times = []
        for _ in range(repeats):
            sync()
            start = clock()
            work()
            times.append(clock() - start)
        return statistics.median(times)

    assert_fails("02.time_fn", sync_first, "call sync() after work()")


def test_time_fn_without_warm_up_is_told_so():
    def no_warmup(work, sync, clock, repeats=5):
        times = []
        for _ in range(repeats):
            start = clock()
            work()
            sync()
            times.append(clock() - start)
        return statistics.median(times)

    result = assert_fails("02.time_fn", no_warmup, "before any warm-up call")
    assert result.passed == []


def test_time_fn_warm_up_without_sync_is_told_so():
    def warmup_unsynced(work, sync, clock, repeats=5):
        work()
        times = []
        for _ in range(repeats):
            start = clock()
            work()
            sync()
            times.append(clock() - start)
        return statistics.median(times)

    assert_fails("02.time_fn", warmup_unsynced, "call sync() before the first clock read")


def test_time_fn_returning_the_mean_is_asked_for_the_median():
    def mean_of_block(work, sync, clock, repeats=5):
        work()
        sync()
        start = clock()
        for _ in range(repeats):
            work()
        sync()
        return (clock() - start) / repeats

    assert_fails("02.time_fn", mean_of_block, "5 times between two clock reads", "median")


def test_time_fn_reading_its_own_clock_is_told_to_use_the_given_one():
    def own_clock(work, sync, clock, repeats=5):
        return time_fn(work, sync, time.perf_counter, repeats)

    assert_fails("02.time_fn", own_clock, "never called clock()")


def timer_variant(*, statistic=statistics.median, repeats_used=None, sync_before=False,
                  scale=1.0):  # fmt: skip
    """time_fn with one thing changed, as a learner might write it."""

    def answer(work, sync, clock, repeats=5):
        work()
        sync()
        times = []
        for _ in range(repeats if repeats_used is None else repeats_used):
            start = clock()
            if sync_before:
                sync()
                work()
            else:
                work()
                sync()
            times.append(clock() - start)
        return statistic(times) * scale if scale != 1.0 else statistic(times)

    return answer


def test_time_fn_alternatives_pass():
    def chained(work, sync, clock, repeats=5):
        work()
        sync()
        marks = [clock()]
        for _ in range(repeats):
            work()
            sync()
            marks.append(clock())  # the end of one call is the start of the next
        gaps = [b - a for a, b in zip(marks[:-1], marks[1:], strict=True)]
        return torch.tensor(gaps, dtype=torch.float64).quantile(0.5)  # the mean of two middles

    def extra_syncs(work, sync, clock, repeats=5):
        for _ in range(3):  # a longer warm-up
            work()
        sync()
        times = []
        for _ in range(repeats):
            sync()
            start = clock()
            work()
            sync()
            end = clock()
            times.append(end - start)
        times.sort()
        mid = len(times) // 2
        return times[mid] if len(times) % 2 else (times[mid - 1] + times[mid]) / 2

    assert_passes("02.time_fn", chained)
    assert_passes("02.time_fn", extra_syncs)


def test_time_fn_rejects_a_sync_before_the_work_inside_the_timing():
    assert_fails(
        "02.time_fn",
        timer_variant(sync_before=True),
        "with sync() before work(), the previous call",
        "call sync() after work()",
    )


def test_time_fn_rejects_ignoring_repeats():
    assert_fails(
        "02.time_fn",
        timer_variant(repeats_used=5),
        "called work() 5 times after its first clock read, for repeats=3",
        "use the argument",
    )


def test_time_fn_rejects_nan_and_other_non_times():
    assert_fails("02.time_fn", timer_variant(statistic=lambda t: float("nan")), "returned nan")
    assert_fails("02.time_fn", timer_variant(statistic=lambda t: t), "returned a list")
    assert_fails("02.time_fn", timer_variant(statistic=lambda t: 0.0), "finite number > 0")


def test_time_fn_names_milliseconds_and_the_wrong_statistic():
    assert_fails("02.time_fn", timer_variant(scale=1e3), "in milliseconds", "return seconds")
    assert_fails("02.time_fn", timer_variant(statistic=min), "the fastest call", "median")
    assert_fails("02.time_fn", timer_variant(statistic=statistics.fmean), "the mean", "median")
    assert_fails("02.time_fn", timer_variant(statistic=sum), "the sum of all calls")


def test_time_fn_names_a_result_converted_from_another_unit_than_the_clocks():
    for scale, words in ((1e-3, "1/1,000 of"), (1e-6, "1/1,000,000 of"), (1e-9, "1/1,000,000,000")):
        assert_fails("02.time_fn", timer_variant(scale=scale), words, "no conversion")


def test_time_fn_names_the_upper_or_lower_middle_for_an_even_number_of_times():
    def upper(times):
        return sorted(times)[len(times) // 2]

    def lower(times):
        return float(torch.tensor(times, dtype=torch.float64).median())

    for statistic, which in ((upper, "the upper"), (lower, "the lower")):
        result = assert_fails(
            "02.time_fn",
            timer_variant(statistic=statistic),
            "with repeats=4 and times 3.28 ms, 4.1 ms, 4.92 ms, 12.3 ms, time_fn returned",
            f"{which} of the two middle times",
            "the median is the mean of the two middle ones, 4.51 ms",
        )
        assert len(result.passed) == 4
    # neither middle: a wrong value named with the median it should be
    assert_fails(
        "02.time_fn",
        timer_variant(statistic=lambda t: statistics.median(t) if len(t) != 4 else t[0]),
        "where their median is 4.51 ms: return statistics.median",
    )


def test_time_fn_names_times_kept_from_earlier_calls():
    def kept(work, sync, clock, repeats=5, _times=[]):  # noqa: B006 (the mistake under test)
        work()
        sync()
        for _ in range(repeats):
            start = clock()
            work()
            sync()
            _times.append(clock() - start)
        return statistics.median(_times)

    assert_fails(
        "02.time_fn",
        kept,
        "the median of this call's times together with those of earlier calls",
        "a default argument times=[]",
        "start a new list in every call",
    )


def test_time_fn_keeps_the_prompts_defaults():
    def answer_with(clock=time.perf_counter, repeats=5):
        def timer(work, sync, clock=clock, repeats=repeats):
            return time_fn(work, sync, clock, repeats)

        return timer

    assert_passes("02.time_fn", answer_with())
    assert_fails("02.time_fn", answer_with(repeats=3), "time_fn's repeats has the default 3")
    assert_fails("02.time_fn", answer_with(clock=time.time), "time_fn's clock has the default time")

    def no_defaults(work, sync, clock, repeats):  # every call passes all four: left alone
        return time_fn(work, sync, clock, repeats)

    def other_names(work, sync, read, n=5):  # no parameter named clock: its default is not read
        return time_fn(work, sync, read, n)

    assert_passes("02.time_fn", no_defaults)
    assert_passes("02.time_fn", other_names)
    assert_passes("02.time_fn", lambda *args: time_fn(*args))


def test_time_fn_statistic_and_type_hints_in_full():
    # The simulated 2 ms job's five measured calls take 1.6, 2, 10, 2 and 1.6 ms.
    for statistic, scale, words in (
        (max, 1.0, "which is the slowest call (max) of the calls: return the median"),
        (sum, 1.0, "which is the sum of all calls of the calls: return the median time of one call"),
        (statistics.median, 1e6, "which is the median in microseconds of the calls: return "
         "seconds (the clock's unit)"),
    ):  # fmt: skip
        assert_fails("02.time_fn", timer_variant(statistic=statistic, scale=scale), words)
    assert_fails(
        "02.time_fn",
        timer_variant(statistic=lambda t: t),
        "time_fn returned a list: return the median seconds per call as one float "
        "(statistics.median of the list of times)",
    )
    assert_fails(
        "02.time_fn",
        timer_variant(statistic=lambda t: 0.0),
        "time_fn returned 0.0: a time must be a finite number > 0; check that the list of times "
        "is not empty and that each time is end - start of one call",
    )
    assert_fails("02.time_fn", 42, "pass the function itself: check('02.time_fn', time_fn)")
    assert_fails(
        "02.time_fn",
        timer_variant(statistic=lambda t: statistics.median(t) / 10),
        "time_fn returned 200 us for work that takes 2 ms (its launch takes 10 us): work() only "
        "queues the job and returns; call sync() after work() and before the clock read that "
        "ends each measurement",
    )
    assert_fails(
        "02.time_fn",
        timer_variant(statistic=lambda t: 2e-3),  # the first job's median, written in
        "with a 30 ms job and repeats=3, time_fn returned 2 ms: sync after each work() (not "
        "before it), and use the arguments you are given, nothing fixed",
    )
    assert_fails(
        "02.time_fn",
        timer_variant(statistic=lambda t: statistics.median(t) if len(t) != 4 else t[0]),
        "with repeats=4 and times 3.28 ms, 4.1 ms, 4.92 ms, 12.3 ms, time_fn returned 3.28 ms, where "
        "their median is 4.51 ms: return statistics.median of the per-call times",
    )


def test_time_fn_warm_up_synced_before_but_not_after_its_work_is_told_so():
    def synced_too_early(work, sync, clock, repeats=5):
        sync()
        work()  # the warm-up, never waited for
        return _timed(work, sync, clock, repeats)

    assert_fails(
        "02.time_fn",
        synced_too_early,
        "after the warm-up call, call sync() before the first clock read",
    )


def _timed(work, sync, clock, repeats):
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


def test_time_fn_two_calls_in_one_window_are_named_even_when_the_count_is_right():
    def first_two_together(work, sync, clock, repeats=5):
        work()
        sync()
        start = clock()
        work()
        work()
        sync()
        first = (clock() - start) / 2
        return statistics.median(
            [first, *[_timed(work, sync, clock, 1) for _ in range(repeats - 2)]]
        )

    assert_fails(
        "02.time_fn", first_two_together, "time_fn called work() 2 times between two clock reads"
    )


def test_the_simulated_devices_first_job_pays_the_cold_start():
    from d2lgpu.checks.ch02_time_fn import FakeAsyncDevice

    device = FakeAsyncDevice(2e-3, cold_s=0.1, pattern=(1.0,))
    start = device.clock()
    device.work()
    device.sync()
    first = device.clock() - start
    device.work()
    device.sync()
    second = device.clock() - start - first
    assert abs(first - 0.102) < 1e-9 and abs(second - 2e-3) < 1e-9, (first, second)


def test_time_fn_names_a_median_divided_by_repeats_again_and_a_rounded_one():
    assert_fails(
        "02.time_fn",
        timer_variant(statistic=lambda t: statistics.median(t) / len(t)),
        "time_fn returned 0.0004, which is 1/5 of the median of the calls: the median of the "
        "per-call times is already the time of one call: do not divide it by repeats",
    )
    assert_fails(
        "02.time_fn",
        timer_variant(statistic=lambda t: round(statistics.median(t), 3)),
        "time_fn returned 0.005 s, the median (4.51 ms) rounded to 3 decimal place(s): a call "
        "shorter than a millisecond then reads as another time, or 0. Return the median "
        "unrounded, and round only where you print it",
    )


def test_time_fn_names_statistics_median_grouped():
    assert_fails(
        "02.time_fn",
        timer_variant(statistic=statistics.median_grouped),
        "time_fn returned -0.248, which is statistics.median_grouped of the per-call times: it "
        "takes the times as classes 1 wide (1 s) and interpolates inside the middle one, so "
        "times of a few ms come out off by up to half a second, even negative. Return "
        "statistics.median of the times",
    )


def test_time_fn_names_slow_calls_dropped_before_the_median():
    def without_slow(times):
        return statistics.median([t for t in times if t <= 2 * min(times)])

    assert_fails(
        "02.time_fn",
        timer_variant(statistic=without_slow),
        "time_fn returned 1.8 ms, the median of the 4 fastest of the 5 calls: the slowest were "
        "dropped before the median, which makes it too low whenever several calls are slow. "
        "The median already ignores a few slow calls: return statistics.median of every "
        "per-call time",
    )


def test_time_fn_names_a_result_kept_for_the_same_work():
    import functools

    remembered = functools.lru_cache(maxsize=None)(time_fn)

    assert_fails(
        "02.time_fn",
        lambda work, sync, clock, repeats: remembered(work, sync, clock, repeats),
        "a second call of time_fn with the same work, sync and clock returned 3 ms without "
        "calling work() (the work had grown from 3 ms to 6 ms): a result kept from the first "
        "call (functools.lru_cache / cache, or a dict keyed on work) is stale once the work or "
        "the machine changes, and keeps every work (and its tensors) alive. Time the work in "
        "every call",
    )


def test_time_fn_warms_up_again_for_a_work_it_has_seen():
    seen = set()

    def warmed_once(work, sync, clock, repeats):
        if work not in seen:  # one warm-up per work, remembered between calls
            seen.add(work)
            work()
            sync()
        return _timed(work, sync, clock, repeats)

    assert_fails(
        "02.time_fn",
        warmed_once,
        "the first clock read came before any warm-up call: call work() once and sync() before "
        "you start measuring",
    )


def test_the_calls_after_the_last_clock_read_are_held_to_the_same_rule():
    from d2lgpu.checks._ch02_time_log import check_log
    from d2lgpu.checks._util import CheckFailed

    timed = ["work", "sync", "clock", "work", "sync", "clock"]
    check_log(timed + ["work", "sync", "clock"], 2)
    # two calls after the last read, timed by no clock: counted as one measurement's
    with pytest.raises(CheckFailed, match=r"called work\(\) 2 times between two clock reads"):
        check_log(timed + ["work", "work", "sync"], 3)


def _cuda_timer(use):
    """A timer that, where torch.cuda.is_available(), does ``use(work, sync)`` per call."""

    def answer(work, sync, clock=time.perf_counter, repeats=5):
        work()
        sync()
        times = []
        for _ in range(repeats):
            start = clock()
            work()
            if torch.cuda.is_available():
                use(work, sync)
            else:
                sync()
            times.append(clock() - start)
        return statistics.median(times)

    return answer


def test_a_timer_that_turns_to_torch_cuda_where_a_gpu_is_seen_is_named_for_what_it_called():
    where = "where torch.cuda.is_available() is True (a machine with a GPU), your time_fn "
    given = "call those, whatever the machine, and no torch.cuda function"
    originals = [getattr(torch.cuda, name) for name in ("is_available", "synchronize", "Event")]
    synced = _cuda_timer(lambda work, sync: torch.cuda.synchronize())
    said = "called torch.cuda.synchronize() (5 times) in place of the sync() it was given: "
    assert_fails("02.time_fn", synced, where + said + "time_fn is given the work's own", given)
    for name in ("Event", "Stream", "current_stream", "default_stream", "stream"):
        uses = _cuda_timer(lambda work, sync, name=name: getattr(torch.cuda, name)())
        assert_fails("02.time_fn", uses, f"{where}called torch.cuda.{name}: ", given)

    def hidden(work, sync):  # a learner's `except Exception` does not hide the refusal
        try:
            torch.cuda.Event(enable_timing=True)
        except Exception:
            pass
        sync()

    assert_fails("02.time_fn", _cuda_timer(hidden), f"{where}called torch.cuda.Event: ")
    # no torch.cuda call, but no sync either: the run's own hint, said where
    result = assert_fails("02.time_fn", _cuda_timer(lambda work, sync: None), where[:-15] + ": ")
    assert "synchronize() (" not in result.hint and "sync()" in result.hint

    def doubled(work, sync):  # a time of its own there, 2 jobs in one window
        sync()
        work()
        sync()

    assert_fails("02.time_fn", _cuda_timer(doubled), where[:-15] + ": time_fn called work() 2")

    def twice(work, sync, clock=time.perf_counter, repeats=5):  # a right log, a wrong time
        work()
        sync()
        seconds = _timed(work, sync, clock, repeats)
        return 2 * seconds if torch.cuda.is_available() else seconds

    said = ", time_fn returned 0.004 s for work that takes 0.002 s: "
    assert_fails("02.time_fn", twice, where[:-15] + said, given)

    def broken(work, sync):  # an error of the answer's own there: named with its type
        raise RuntimeError("no such device")

    assert_fails("02.time_fn", _cuda_timer(broken),
                 f"{where}raised RuntimeError: no such device. time_fn is given")  # fmt: skip
    # both barriers: the given sync() waits for the work, so the time is right
    assert_passes("02.time_fn", _cuda_timer(lambda work, sync: (torch.cuda.synchronize(), sync())))
    now = [getattr(torch.cuda, name) for name in ("is_available", "synchronize", "Event")]
    assert now == originals, "the checker put back torch.cuda as it found it"


def test_a_timer_that_called_torch_cuda_synchronize_is_named_so_whatever_else_went_wrong():
    said = "your time_fn called torch.cuda.synchronize() (1 times) in place of the sync()"

    def raising(work, sync):  # torch.cuda's barrier, then an error of its own
        torch.cuda.synchronize()
        raise RuntimeError("no such device")

    assert_fails("02.time_fn", _cuda_timer(raising), said)

    def both_then_doubled(work, sync, clock=time.perf_counter, repeats=5):  # a wrong time too
        work()
        sync()
        seconds = _timed(work, sync, clock, repeats)
        if torch.cuda.is_available():
            torch.cuda.synchronize()
            return 2 * seconds
        return seconds

    assert_fails("02.time_fn", both_then_doubled, said)

    def counted(work, sync):  # a GPU seen through device_count(), not is_available()
        torch.cuda.synchronize() if torch.cuda.device_count() else sync()

    counting = _cuda_timer(counted)
    assert_fails("02.time_fn", lambda *a: counting(*a), "called torch.cuda.synchronize() (5 times)")


def test_time_fn_mixing_the_given_clock_with_its_own_is_named():
    def mixed(work, sync, clock, repeats=5):  # round 66's w01
        work()
        sync()
        times = []
        for _ in range(repeats):
            start = clock()
            work()
            sync()
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    assert_fails(
        "02.time_fn", mixed, "time_fn returned a wrong time and read time.perf_counter() besides "
        "the clock it was given",
        "Read every time with the clock you are given",
    )  # fmt: skip


def test_time_fn_calling_work_before_the_clock_read_that_starts_it_is_named():
    def launched_first(work, sync, clock, repeats=5):  # round 66's w08
        work()
        sync()
        times = []
        for _ in range(repeats):
            work()
            start = clock()
            sync()
            times.append(clock() - start)
        return statistics.median(times)

    assert_fails(
        "02.time_fn", launched_first, "time_fn called work() before the clock read that starts "
        "its measurement", "Read clock() first",
    )  # fmt: skip
