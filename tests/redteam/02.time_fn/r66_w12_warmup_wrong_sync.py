# expect: fail the warm-up waits with d2lgpu.sync() instead of the given sync(): the warm-up job spills into the first measurement
# hint: warm.?up|given sync|sync.{0,30}(given|passed)|d2lgpu\.sync|first (measurement|sample|time)|spill|still running
# Wrong: "use the work, sync and clock you are given"; d2lgpu.sync() with no device waits for
# nothing here (no CUDA in use, or another device), so the warm-up is not finished before the clock.
import statistics
import time

from d2lgpu import sync as wait_for_device


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    wait_for_device()  # the course's own helper: "waits for the GPU"
    times = []
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        times.append(clock() - t0)
    return statistics.median(times)
