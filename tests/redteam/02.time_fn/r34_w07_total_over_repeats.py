# expect: fail one sync after the whole loop and total/repeats: an average, and calls pipelined, not per-call medians
# hint: median|each|per.call|sync
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    start = clock()
    for _ in range(repeats):
        work()
    sync()
    return (clock() - start) / repeats


answer = time_fn
