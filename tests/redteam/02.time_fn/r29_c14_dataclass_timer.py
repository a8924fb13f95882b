# expect: pass a dataclass bound to work/sync/clock with warm_up() and measure() methods; a fresh one per call
# hint: 
import statistics
import time
from dataclasses import dataclass, field


@dataclass
class _AsyncTimer:
    work: object
    sync: object
    clock: object
    samples: list = field(default_factory=list)

    def warm_up(self):
        self.work()
        self.sync()

    def measure(self):
        start = self.clock()
        self.work()
        self.sync()
        self.samples.append(self.clock() - start)


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    timer = _AsyncTimer(work, sync, clock)
    timer.warm_up()
    for _ in range(repeats):
        timer.measure()
    return statistics.median(timer.samples)


answer = time_fn
