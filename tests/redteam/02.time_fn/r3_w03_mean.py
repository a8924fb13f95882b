# expect: fail returns the mean, not the median
# hint: mean.*median
import time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    times = []
    for _ in range(repeats):
        t0 = clock(); work(); sync(); times.append(clock() - t0)
    return sum(times) / len(times)
