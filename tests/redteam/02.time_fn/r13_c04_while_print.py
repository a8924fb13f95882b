# expect: pass while loop, tuple accumulation and a print of the result
# hint: 
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    samples = ()
    left = repeats
    while left > 0:
        start = clock()
        work()
        sync()
        stop = clock()
        samples += (stop - start,)
        left -= 1
    median = statistics.median(samples)
    print(f"time_fn: {len(samples)} samples, median {median * 1e3:.3f} ms")
    return median


answer = time_fn
