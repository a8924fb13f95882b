# expect: pass a context-manager Stopwatch class that syncs on exit, one fresh instance per call
# hint:
import statistics
import time


class _Stopwatch:
    """Reads the clock on entry; on exit syncs, then reads it again."""

    def __init__(self, sync, clock):
        self.sync, self.clock = sync, clock
        self.laps = []

    def __enter__(self):
        self._start = self.clock()
        return self

    def __exit__(self, *exc):
        self.sync()
        self.laps.append(self.clock() - self._start)
        return False


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()  # warm-up
    sync()
    watch = _Stopwatch(sync, clock)  # new for every call: no times carried over
    for _ in range(repeats):
        with watch:
            work()
    return statistics.median(watch.laps)


answer = time_fn
