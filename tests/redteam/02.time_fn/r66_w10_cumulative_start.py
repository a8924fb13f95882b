# expect: fail start time read once before the loop: the "per-call" times are cumulative (1, 2, 3... calls)
# hint: cumulative|start|reset|grow|per.?call|too long|total|each (measurement|call)|sum
# Wrong: step 2 reads clock() before each work(); reading it once makes the i-th time cover i
# calls, so the median of 5 is about 3 calls' time.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    start = clock()
    for _ in range(repeats):
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)
