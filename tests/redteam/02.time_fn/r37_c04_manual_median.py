# expect: pass while loop with a counter and a hand-written median (mean of the two middle values)
# hint:
# name: time_fn
import time


def _median(values):
    ordered = sorted(values)
    n = len(ordered)
    mid = n // 2
    if n % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    seconds = []
    done = 0
    while done < repeats:
        t0 = clock()
        work()
        sync()
        t1 = clock()
        seconds.append(t1 - t0)
        done += 1
    return _median(seconds)
