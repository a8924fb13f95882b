# expect: pass functools.partial of a general timer, generator of samples, explicit middle-pair median
# hint:
import functools
import itertools
import statistics
import time


def _timed(work, sync, clock):
    start = clock()
    work()
    sync()
    return clock() - start


def _median_seconds(work, sync, clock=time.perf_counter, repeats=5, *, warmups=1):
    for _ in itertools.repeat(None, warmups):
        work()
        sync()
    samples = sorted(_timed(work, sync, clock) for _ in itertools.repeat(None, repeats))
    mid = len(samples) // 2
    middle = samples[mid] if len(samples) % 2 else (samples[mid - 1] + samples[mid]) / 2
    assert abs(middle - statistics.median(samples)) <= 1e-12 * max(1.0, abs(middle))
    return middle


time_fn = functools.partial(_median_seconds, warmups=1)
time_fn.__doc__ = "Median seconds per call of work(), synchronizing with sync() before each clock read."

answer = time_fn
