# expect: pass three warm-up calls and one sync before the first clock read (the prompt: more warm-up calls do no harm)
# hint: 
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    for _ in range(3):  # a few warm-up calls, to be safe
        work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
