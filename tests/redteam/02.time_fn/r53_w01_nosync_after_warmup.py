# expect: fail warm-up call not followed by sync() before the first clock read
# hint: warm|sync
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()  # warm-up: pays the one-off costs (but its job may still be running)
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
