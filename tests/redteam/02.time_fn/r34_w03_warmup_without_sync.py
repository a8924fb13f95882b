# expect: fail warm-up work() not followed by sync(): the warm-up job still runs during the first measurement
# hint: warm.*sync|sync.*warm
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()  # warm-up (forgot to wait for it)
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
