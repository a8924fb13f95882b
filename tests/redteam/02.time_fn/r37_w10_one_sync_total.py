# expect: fail times all repeats as one block with one sync, returns total / repeats instead of a median of per-call times
# hint: (median|per.call|each (call|measurement)|mean|average|total)
# name: time_fn
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    start = clock()
    for _ in range(repeats):
        work()
    sync()
    return (clock() - start) / repeats
