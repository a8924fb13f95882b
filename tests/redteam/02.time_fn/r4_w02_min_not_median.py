# expect: fail returns the fastest sample (min), not the median
# hint: median|min|fastest
import time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    times = []
    for _ in range(repeats):
        t0 = clock(); work(); sync(); times.append(clock() - t0)
    return min(times)
