# expect: fail warms up only on the first call of time_fn in the process (global flag); later calls time a cold work()
# hint: warm
import statistics
import time

_warmed_up = False


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    global _warmed_up
    if not _warmed_up:  # the one-off costs (CUDA context, cuBLAS handle) are paid once per process
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
