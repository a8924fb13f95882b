# expect: fail no warm-up: the first timed call pays the one-off costs
# hint: warm.?up|first call|one.?off|cold|before (any|the first) clock
# Wrong: step 1 asks for one work() + sync() before any clock read; here the first
# measurement includes the CUDA context / handle / cache costs of a cold first call.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)
