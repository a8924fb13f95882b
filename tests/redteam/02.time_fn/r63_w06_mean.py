# expect: fail returns the mean of the per-call times, not the median
# hint: median|mean|average|outlier|slow call
# Wrong: step 3 asks for the median, which a few slow calls (another program stealing the
# machine) do not move; the mean is pulled up by each of them.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.fmean(times)
