# expect: fail statistics.median_high picks the upper middle value for an even number of repeats
# hint: median|even|middle|upper|high
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    # "a median that is one of the measured times, not a made-up average"
    return statistics.median_high(times)


answer = time_fn
