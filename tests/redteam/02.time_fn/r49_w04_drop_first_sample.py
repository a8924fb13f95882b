# expect: fail drops the first measured sample as a second warm-up: median of repeats-1 times
# hint: repeat|measure|sample|median|count
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
    # the first timed call can still be a little slow (caches): leave it out
    return statistics.median(times[1:] if len(times) > 1 else times)


answer = time_fn
