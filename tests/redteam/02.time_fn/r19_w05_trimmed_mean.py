# expect: fail returns a trimmed mean (drops the fastest and slowest time, averages the rest) instead of the median
# hint: median|trim|mean|average|statistic
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Seconds per call of work(), robust to outliers: drop the extremes, average the rest."""
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    times.sort()
    kept = times[1:-1] if len(times) > 2 else times
    return sum(kept) / len(kept)


answer = time_fn
