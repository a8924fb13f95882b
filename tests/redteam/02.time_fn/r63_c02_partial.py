# expect: pass
# hint:
# Right: functools.partial of a general timer with a warm-up count; one warm-up call,
# synced, then the prompt's per-measurement order and statistics.median.
import functools
import statistics
import time


def _median_time(work, sync, clock=time.perf_counter, repeats=5, *, warmups):
    for _ in range(warmups):
        work()
    sync()
    samples = []
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        t1 = clock()
        samples.append(t1 - t0)
    return statistics.median(samples)


answer = functools.partial(_median_time, warmups=1)
