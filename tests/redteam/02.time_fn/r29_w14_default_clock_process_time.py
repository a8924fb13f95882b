# expect: fail changes the default clock to time.process_time ("CPU time is steadier"): the prompt's default is time.perf_counter, and process time does not advance while the host sleeps in sync() waiting for a GPU, so a caller using the default measures the launch, not the work.
# hint: (process_time|default clock|perf_counter|default (argument|value)|signature|wall.?clock|cpu time|sleep)
import statistics
import time


def time_fn(work, sync, clock=time.process_time, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    samples = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        samples.append(clock() - start)
    return statistics.median(samples)


answer = time_fn
