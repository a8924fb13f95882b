# expect: pass
# hint:
# Right: three warm-up calls ("more warm-up calls do no harm"), each synced, and a
# hand-written median equal to statistics.median (mean of the two middle for even counts).
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    for _ in range(3):
        work()
        sync()
    times = []
    for _ in range(repeats):
        begin = clock()
        work()
        sync()
        times.append(clock() - begin)
    times.sort()
    mid = len(times) // 2
    if len(times) % 2:
        return times[mid]
    return (times[mid - 1] + times[mid]) / 2
