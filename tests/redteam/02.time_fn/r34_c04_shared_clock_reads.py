# expect: pass one clock read per iteration, each end read reused as the next start (consecutive differences)
# hint: 
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    stamps = [clock()]
    for _ in range(repeats):
        work()
        sync()
        stamps.append(clock())
    return statistics.median(b - a for a, b in zip(stamps, stamps[1:]))


answer = time_fn
