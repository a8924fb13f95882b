# expect: pass
# hint:
# Right: a callable class instance; warm-up with sync before any clock read, then
# clock/work/sync/clock per measurement, and statistics.median of the times.
import statistics
import time


class SyncedTimer:
    """Median seconds per call of work(), syncing before each clock read."""

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


answer = SyncedTimer()
