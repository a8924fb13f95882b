# expect: fail the warm-up call is timed and kept, so repeats + 1 samples (one with the one-off costs) go into the median
# hint: warm.?up|first call|one.?off|repeats \+ 1|extra (sample|measurement|call|time)|number of (calls|samples|times|measurements)
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(); the median ignores the slow first call anyway."""
    times = []
    for _ in range(repeats + 1):  # the first one is the warm-up
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
