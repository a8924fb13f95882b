# expect: fail sorted(times)[n//2]: the upper middle for even repeats
# hint: median|even|middle
import time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    times = []
    for _ in range(repeats):
        t0 = clock(); work(); sync(); times.append(clock() - t0)
    return sorted(times)[len(times) // 2]
