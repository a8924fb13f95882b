# expect: fail warm-up call not followed by sync(), its job runs into the first measurement
# hint: warm.?up
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()  # warm-up: pays the one-off costs (the measurement loop syncs anyway)
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
