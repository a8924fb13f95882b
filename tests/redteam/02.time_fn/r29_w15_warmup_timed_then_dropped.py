# expect: fail does the warm-up as a timed measurement that it throws away (repeats + 1 samples, the first dropped): the values are right, but the clock is read before the warm-up call, against rule 1 (warm up before any clock read), and the clock is read 2 extra times.
# hint: (warm.?up|before any clock|clock (read|call)s?|read(s|ing)? (the )?clock|repeats ?\+ ?1|extra (sample|measurement|read)|dropp|discard)
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    samples = []
    for _ in range(repeats + 1):
        start = clock()
        work()
        sync()
        samples.append(clock() - start)
    return statistics.median(samples[1:])  # the first call paid the one-off costs: drop it


answer = time_fn
