# expect: pass functools.partial of a one-sample helper, samples from a list comprehension
# hint:
import functools
import statistics
import time


def _one_sample(work, sync, clock):
    start = clock()
    work()
    sync()
    return clock() - start


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    sample = functools.partial(_one_sample, work, sync, clock)
    return statistics.median([sample() for _ in range(repeats)])


answer = time_fn
