# expect: pass a class instance with __call__, the warm-up and the single measurement as methods
# hint:
import statistics
import time


class SyncedMedianTimer:
    """Median seconds per call of work(), synchronizing before each clock read."""

    def _warm_up(self, work, sync):
        work()
        sync()

    def _measure_once(self, work, sync, clock):
        start = clock()
        work()
        sync()
        return clock() - start

    def __call__(self, work, sync, clock=time.perf_counter, repeats=5):
        self._warm_up(work, sync)
        samples = [self._measure_once(work, sync, clock) for _ in range(repeats)]
        return statistics.median(samples)


time_fn = SyncedMedianTimer()
answer = time_fn
