# expect: fail the warm-up call is timed and its time kept among the samples (repeats+1 samples, first one slow)
# hint: warm
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    times = []
    for i in range(repeats + 1):  # the first one is the warm-up
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
