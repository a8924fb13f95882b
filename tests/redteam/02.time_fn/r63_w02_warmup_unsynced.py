# expect: fail warm-up work() not followed by sync(): its job is still running when the clock starts
# hint: warm.?up.*(sync|wait|finish)|sync.*warm.?up|still (running|queued)|before (any|the first) clock
# Wrong: step 1 says call work() once, THEN sync(), before any clock read. Without that sync
# the first measurement's sync() also waits for the warm-up's job, so it counts two jobs.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()  # warm-up (but its job is left running)
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)
