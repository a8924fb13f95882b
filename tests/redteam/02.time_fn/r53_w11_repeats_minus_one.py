# expect: fail counts the warm-up as one of the repeats, so only repeats-1 measurements are taken
# hint: repeat|count|measure|samples|times|calls
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()  # warm-up: the first of the `repeats` calls
    sync()
    times = []
    for _ in range(max(repeats - 1, 1)):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
