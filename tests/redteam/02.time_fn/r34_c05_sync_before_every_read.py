# expect: pass defensive stopwatch style (as d2lgpu.Timer): sync() before every clock read, including the start of each measurement
# hint: 
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    per_call = []
    for _ in range(repeats):
        sync()  # nothing else queued: start from an idle device
        t0 = clock()
        work()
        sync()
        per_call.append(clock() - t0)
    return statistics.median(per_call)


answer = time_fn
