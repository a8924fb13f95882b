# expect: fail each measurement calls work() twice and halves the time (amortizing), not one call per measurement
# hint: (once|one call) per|calls? (to )?work|two calls|twice|number of (calls|work)|too many|how many|called work\(\) \d+ times
# Wrong: step 2 is one work() between the two clock reads; two calls per sample halve the
# sync's share and overlap the second launch with the first job: not the per-call time asked.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        t0 = clock()
        work()
        work()
        sync()
        times.append((clock() - t0) / 2)
    return statistics.median(times)
