# expect: pass three warm-ups, a while loop, and a hand-written median that averages the two middle times
# hint:
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    for _ in range(3):  # more warm-up calls do no harm
        work()
        sync()
    times = []
    while len(times) < repeats:
        t0 = clock()
        work()
        sync()
        t1 = clock()
        times.append(t1 - t0)
    times.sort()
    mid = len(times) // 2
    if len(times) % 2:
        return times[mid]
    return (times[mid - 1] + times[mid]) / 2


answer = time_fn
