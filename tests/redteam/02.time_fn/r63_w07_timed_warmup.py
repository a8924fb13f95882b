# expect: fail the warm-up call is timed (clock read before it) and then dropped
# hint: warm.?up|before (any|the first) clock|clock.*(before|read)|extra (measurement|clock)
# Wrong: step 1 says the warm-up comes before ANY clock read; this times repeats + 1 calls
# and discards the first, so the clock is read around the cold call (and read 2 extra times).
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    times = []
    for _ in range(repeats + 1):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times[1:])  # drop the warm-up
