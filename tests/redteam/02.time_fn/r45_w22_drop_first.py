# expect: fail no separate warm-up: times repeats + 1 calls and drops the first, so a clock read precedes the warm-up
# hint: warm
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    times = []
    for _ in range(repeats + 1):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times[1:])  # the first call was the warm-up


answer = time_fn
