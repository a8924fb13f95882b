# expect: fail reads the clock around the warm-up call (then discards it): a clock read before the warm-up is done
# hint: warm.?up|before any clock|clock read|clock.{0,30}(read|call)s?|extra (clock|read)
# Wrong: step 1 says the warm-up (work() then sync()) comes before any clock read; this one
# times the warm-up "to print it" and throws the number away. Right value, wrong protocol.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    t0 = clock()
    work()
    sync()
    first_call = clock() - t0  # one-off costs, kept for curiosity, not in the median
    del first_call
    times = []
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        times.append(clock() - t0)
    return statistics.median(times)
