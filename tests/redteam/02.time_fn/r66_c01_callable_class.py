# expect: pass
# hint:
# Right: a callable instance with the same signature; one warm-up + sync, then `repeats`
# clock/work/sync/clock measurements, statistics.median of them.
import statistics
import time


class MedianTimer:
    """time_fn as an object: answer(work, sync, clock, repeats) -> median seconds per call."""

    def __call__(self, work, sync, clock=time.perf_counter, repeats=5):
        work()
        sync()
        return statistics.median(self._one(work, sync, clock) for _ in range(repeats))

    @staticmethod
    def _one(work, sync, clock):
        start = clock()
        work()
        sync()
        return clock() - start


answer = MedianTimer()
