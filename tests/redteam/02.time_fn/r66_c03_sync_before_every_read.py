# expect: pass
# hint:
# Right: like d2lgpu.Timer, it also calls sync() before each start read ("synchronizing with
# sync() before each clock read"); redundant after the previous sync, but allowed.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()

    def measure():
        sync()  # nothing queued is charged to this interval
        t = clock()
        work()
        sync()
        return clock() - t

    return statistics.median([measure() for _ in range(repeats)])
