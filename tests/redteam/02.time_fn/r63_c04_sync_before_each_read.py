# expect: pass
# hint:
# Right: syncs before EACH clock read, as the docstring says ("synchronizing with sync()
# before each clock read"): the extra sync before the start read waits for nothing queued.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        sync()  # nothing queued: returns at once
        start = clock()
        work()
        sync()
        stop = clock()
        times.append(stop - start)
    return statistics.median(times)
