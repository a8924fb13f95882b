# expect: fail warms up only on the first call of the process: a second time_fn call, with new work, is timed cold
# hint: warm.?up|first call|second call|each call|cold|one.?off
# Wrong: step 1 applies to every call of time_fn; a global flag skips the warm-up from the
# second call on, though the new work() may have its own one-off costs (another size, device).
import statistics
import time

_warmed_up = False


def answer(work, sync, clock=time.perf_counter, repeats=5):
    global _warmed_up
    if not _warmed_up:  # "the CUDA context is created once per process"
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
