# expect: fail uses statistics.median_grouped, which treats the data as classes of width 1 and interpolates: with an odd number of distinct times (or all equal) it equals the median, but with an even number of times it returns the upper middle time minus 0.5 s (a negative "time"), and with some tied times it is off by up to 0.5 s.
# hint: (median_grouped|grouped|interpolat|even (number|repeats|count)|negative|mean of the two middle|middle (two|ones)|statistics\.median\b)
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    samples = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        samples.append(clock() - start)
    return statistics.median_grouped(samples)  # robust "median" from the statistics module


answer = time_fn
