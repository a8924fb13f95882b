# expect: fail the warm-up call is timed and counted among the samples
# hint: warm
# name: time_fn
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    sync()
    samples = []
    # first iteration doubles as the warm-up
    for _ in range(repeats + 1):
        t0 = clock()
        work()
        sync()
        samples.append(clock() - t0)
    return statistics.median(samples)
