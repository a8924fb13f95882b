# expect: pass records start and end reads in two lists, differences by zip and operator.sub
# hint: 
import operator
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    starts, ends = [], []
    for _ in range(repeats):
        starts.append(clock())
        work()
        sync()
        ends.append(clock())
    return statistics.median(map(operator.sub, ends, starts))


answer = time_fn
