# expect: fail reads the end clock before sync(), so it times the launch only
# hint: sync|launch|wait|before.*clock|clock.*before
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        end = clock()
        sync()  # wait for the job, then go on to the next measurement
        times.append(end - start)
    return statistics.median(times)


answer = time_fn
