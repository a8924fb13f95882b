# expect: fail reads the end clock before sync(): the sync is there but in the wrong order
# hint: sync|synchron|launch|order
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        end = clock()
        sync()  # waits, but after the clock was read
        times.append(end - start)
    return statistics.median(times)


answer = time_fn
