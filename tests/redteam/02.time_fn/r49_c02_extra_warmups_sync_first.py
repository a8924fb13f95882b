# expect: pass three synced warm-ups, an extra sync() before each start read, while loop
# hint:
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    for _ in range(3):  # more warm-up calls do no harm
        work()
        sync()
    times = []
    while len(times) < repeats:
        sync()  # harmless: the queue is already empty
        start = clock()
        work()
        sync()
        end = clock()
        times.append(end - start)
    return float(statistics.median(times))


answer = time_fn
