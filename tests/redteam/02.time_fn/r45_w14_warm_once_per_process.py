# expect: fail warms up only on the first call in the process (global flag): later calls time a cold work()
# hint: warm
import statistics
import time


_warmed_up = False


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    global _warmed_up
    if not _warmed_up:  # the CUDA context is created once per process anyway
        work()
        sync()
        _warmed_up = True
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
