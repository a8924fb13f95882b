# expect: fail divides the median of the per-call times by repeats again, so the result is repeats times too small
# hint: per call|divid|repeats|too (small|short|low)|factor|times smaller
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times) / repeats  # per call


answer = time_fn
