# expect: fail default clock is time.process_time (CPU time), not time.perf_counter: a sync that sleeps is not counted
# hint: default|perf_counter|process_time|cpu time|wall.?clock|sleep
# Wrong: the prompt fixes the signature clock=time.perf_counter; process time counts only this
# process's CPU work, so with the default a GPU wait (the CPU asleep in sync) reads as ~0.
import statistics
import time


def answer(work, sync, clock=time.process_time, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        times.append(clock() - t0)
    return statistics.median(times)
