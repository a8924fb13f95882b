# expect: pass functools.partial over a more general timer with a configurable number of warm-up calls
# hint:
# name: time_fn
import functools
import statistics
import time


def _median_seconds(work, sync, clock=time.perf_counter, repeats=5, *, warmups=1):
    for _ in range(warmups):
        work()
    sync()  # every warm-up job is done before the first clock read

    def one(_):
        t0 = clock()
        work()
        sync()
        t1 = clock()
        return t1 - t0

    return statistics.median(map(one, range(repeats)))


time_fn = functools.partial(_median_seconds, warmups=1)
