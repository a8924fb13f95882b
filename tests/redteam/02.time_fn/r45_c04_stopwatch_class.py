# expect: pass context-manager Stopwatch class that syncs in __exit__ before reading the clock
# hint: 
import statistics
import time


class _Stopwatch:
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
    work()
    sync()
    watch = _Stopwatch(sync, clock)
    for _ in range(repeats):
        with watch:
            work()
    return statistics.median(watch.laps)


answer = time_fn
