# expect: fail also reads clock() right after work() returns (the launch time), a clock read with no sync before it
# hint: sync|synchron|clock read|launch
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times, launches = [], []
    for _ in range(repeats):
        start = clock()
        work()
        launches.append(clock() - start)  # how long the launch took, for comparison
        sync()
        times.append(clock() - start)
    time_fn.last_launch = statistics.median(launches)
    return statistics.median(times)


answer = time_fn
