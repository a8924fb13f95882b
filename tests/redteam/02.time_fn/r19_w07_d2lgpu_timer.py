# expect: fail times with d2lgpu.Timer, which syncs the real device and reads perf_counter, ignoring the sync and clock it was given
# hint: given (sync|clock)|sync\(\)|the sync|clock|d2lgpu\.Timer|Timer|own (timer|clock)|instead of|ignor
import statistics
import time

import d2lgpu


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), using the course's synchronizing stopwatch."""
    work()
    sync()
    timer = d2lgpu.Timer()  # synchronizes before every clock read
    for _ in range(repeats):
        with timer:
            work()
    return statistics.median(timer.times)


answer = time_fn
