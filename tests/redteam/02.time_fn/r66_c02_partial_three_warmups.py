# expect: pass
# hint:
# Right: functools.partial of a general timer with 3 warm-up calls ("more warm-up calls do no
# harm"); all before the first clock read, the last followed by sync().
import functools
import statistics
import time


def _timer(work, sync, clock=time.perf_counter, repeats=5, *, warmups=1):
    for _ in range(warmups):
        work()
    sync()
    times = []
    for _ in range(repeats):
        before = clock()
        work()
        sync()
        after = clock()
        times.append(after - before)
    return statistics.median(times)


answer = functools.partial(_timer, warmups=3)
