# expect: fail times with d2lgpu.Timer, which uses its own sync and perf_counter instead of the given sync and clock
# hint: sync|clock|given|passed|Timer|helper|launch
# Wrong: "Use the work, sync and clock you are given": d2lgpu.Timer() synchronizes CUDA
# (d2lgpu.sync) and reads time.perf_counter, so the given device is never waited for in
# the timed region and the given clock never read.
import statistics
import time

from d2lgpu import Timer as Stopwatch


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    watch = Stopwatch()
    for _ in range(repeats):
        with watch:  # "synchronizes before every clock read"
            work()
    return statistics.median(watch.times)
