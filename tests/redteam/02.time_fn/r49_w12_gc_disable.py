# expect: fail disables the garbage collector while timing (as timeit does) and never re-enables it
# hint: \bgc\b|garbage|collect
import gc
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    gc.disable()  # as timeit does: no collection pauses inside a measurement
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
