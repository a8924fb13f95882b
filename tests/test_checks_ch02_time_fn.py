"""The checker of 02.time_fn: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

import statistics
import time

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


def test_time_fn_names_the_upper_or_lower_middle_for_an_even_number_of_times():
    def upper(times):
        return sorted(times)[len(times) // 2]

    def lower(times):
        return float(torch.tensor(times, dtype=torch.float64).median())

    for statistic, which in ((upper, "the upper"), (lower, "the lower")):
        result = assert_fails(
            "02.time_fn",
            timer_variant(statistic=statistic),
            "with repeats=4 and times 3.2 ms, 4 ms, 4.8 ms, 12 ms, time_fn returned",
            f"{which} of the two middle times",
            "the median is the mean of the two middle ones, 4.4 ms",
        )
        assert len(result.passed) == 4
    # neither middle: a wrong value named with the median it should be
    assert_fails(
        "02.time_fn",
        timer_variant(statistic=lambda t: statistics.median(t) if len(t) != 4 else t[0]),
        "where their median is 4.4 ms: return statistics.median",
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

    assert_passes("02.time_fn", no_defaults)
