# expect: fail warm-up work() not followed by sync(): its job spills into the first measurement
# hint: warm
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()  # warm-up (but the queue is not drained before timing starts)
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
