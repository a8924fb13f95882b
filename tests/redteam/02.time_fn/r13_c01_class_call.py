# expect: pass a class instance with __call__
# hint: 
import statistics
import time


class MedianTimer:
    """Callable timer: warm-up, then repeats of clock/work/sync/clock, median."""

    def __call__(self, work, sync, clock=time.perf_counter, repeats=5):
        work()
        sync()
        samples = []
        for _ in range(repeats):
            samples.append(self._one(work, sync, clock))
        return statistics.median(samples)

    @staticmethod
    def _one(work, sync, clock):
        t0 = clock()
        work()
        sync()
        t1 = clock()
        return t1 - t0


answer = MedianTimer()
