# expect: fail hand-made median sorted(times)[n // 2]: the upper middle time when repeats is even
# hint: even|median|middle|statistics\.median|mean of the two|two middle
# Wrong: right for the default repeats=5, but with an even number of times the prompt asks
# for the mean of the two middle ones (statistics.median); this returns the upper one.
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        times.append(clock() - t0)
    times.sort()
    return times[len(times) // 2]
