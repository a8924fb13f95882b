# expect: fail returns the fastest time (min), not the median
# hint: median|min|fastest|least|best
# Wrong: step 3 asks for the median of the per-call times; the chapter's fastest_of keeps
# the least of several tries, but this exercise's answer is the median.
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        best = min(best, clock() - start)
    return best
