# expect: fail sync() is called before work() inside each window, so the clock stops right after the launch and each window measures the previous job's tail
# hint: sync.{0,40}(after|before)|after (calling )?work|before (calling )?work|order|wait.{0,40}(finish|done|after)|launch
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        sync()  # start from an empty queue
        work()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
