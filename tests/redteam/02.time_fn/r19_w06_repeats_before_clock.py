# expect: fail parameters in the wrong order (repeats before clock), so time_fn(work, sync, clock, repeats) called positionally breaks
# hint: signature|argument|parameter|order|positional|clock.{0,40}repeats|repeats.{0,40}clock|TypeError
import statistics
import time


def time_fn(work, sync, repeats=5, clock=time.perf_counter):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
