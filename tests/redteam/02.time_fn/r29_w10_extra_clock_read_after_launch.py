# expect: fail reads clock() a third time between work() and sync() to report the launch time too: the protocol is clock, work, sync, clock; the extra read sits inside the timed window (its cost is counted in every sample) and the clock is read 3 times per measurement instead of 2.
# hint: (clock (read|call)s?|read(s|ing)? (the )?clock|extra (clock|read)|three|3 (reads|times)|twice per|between work|before sync|launch time)
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    samples, launches = [], []
    for _ in range(repeats):
        start = clock()
        work()
        launched = clock()  # how long the launch alone took, for comparison
        sync()
        end = clock()
        launches.append(launched - start)
        samples.append(end - start)
    return statistics.median(samples)


answer = time_fn
