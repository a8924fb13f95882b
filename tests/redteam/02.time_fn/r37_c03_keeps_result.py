# expect: pass keeps work()'s result alive, stores clock stamps in pairs, computes deltas afterwards
# hint:
# name: time_fn
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    result = work()
    sync()
    stamps = []
    for _ in range(repeats):
        t_start = clock()
        result = work()
        sync()
        t_end = clock()
        stamps.append((t_start, t_end))
    del result
    return statistics.median([end - start for start, end in stamps])
