# expect: fail reads time.perf_counter instead of the clock it is given
# hint: clock|perf_counter|given|passed
# Wrong: "Use the work, sync and clock you are given": the clock argument is ignored, so a
# caller's clock (the checker's, or a thread clock) is never read.
import statistics
import time
from time import perf_counter as now


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = now()
        work()
        sync()
        times.append(now() - start)
    return statistics.median(times)
