# expect: pass a closure made by a factory, one inner helper times one call
# hint:
import statistics
import time


def _make_time_fn():
    def one_call(work, sync, clock):
        start = clock()
        work()
        sync()  # wait for the job before the second clock read
        return clock() - start

    def time_fn(work, sync, clock=time.perf_counter, repeats=5):
        """Median seconds per call of work(), synchronizing with sync() before each clock read."""
        work()  # warm-up: one-off costs
        sync()
        return statistics.median([one_call(work, sync, clock) for _ in range(repeats)])

    return time_fn


answer = _make_time_fn()
