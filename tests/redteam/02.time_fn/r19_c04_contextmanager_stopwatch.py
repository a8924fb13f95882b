# expect: pass contextlib.contextmanager stopwatch that syncs on exit before reading the clock
# hint: 
import contextlib
import statistics
import time


@contextlib.contextmanager
def _stopwatch(sync, clock, into):
    start = clock()
    try:
        yield
    finally:
        sync()
        into.append(clock() - start)


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    times = []
    for _ in range(repeats):
        with _stopwatch(sync, clock, times):
            work()
    return statistics.median(times)


answer = time_fn
