# expect: fail warms up only on the first call of time_fn (a module-level flag), later work is not warmed up
# hint: warm.?up|state|previous|earlier|first call
import statistics
import time

_warmed_up = False  # the one-off costs (CUDA context, cuBLAS handle) are paid once per process


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    global _warmed_up
    if not _warmed_up:
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
