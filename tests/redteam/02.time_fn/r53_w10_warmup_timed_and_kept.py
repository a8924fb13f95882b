# expect: fail the warm-up call is timed and its (slow) time kept among the samples
# hint: warm|repeat|count|samples|times|first
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    sync()  # start from an empty queue
    times = []
    for _ in range(repeats + 1):  # one extra run: the warm-up
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    # the median is robust, so the slow warm-up sample "does no harm"
    return statistics.median(times)


answer = time_fn
