# expect: pass two synchronized warm-up calls and a hand-written median (mean of the two middle sorted times when even)
# hint:
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    for _ in range(2):  # more warm-up calls do no harm
        work()
        sync()
    stamps = []
    for _ in range(repeats):
        before = clock()
        work()
        sync()
        after = clock()
        stamps.append((before, after))
    times = sorted(after - before for before, after in stamps)
    half, odd = divmod(len(times), 2)
    if odd:
        return times[half]
    return (times[half - 1] + times[half]) / 2


answer = time_fn
