# expect: fail waits with torch.cuda.synchronize() (when CUDA is available) instead of the sync it is given: it waits for this process's CUDA streams only, not for the device the caller's sync() stands for (the checker's simulated device, another process, an MPS/XPU device), and with no GPU it never waits at all; only the warm-up uses sync().
# hint: (sync\(\)|given sync|the sync|torch\.cuda\.synchronize|synchroniz|launch|without (a )?sync|forg[eo]t|no wait|~?10 ?us|wait)
import statistics
import time

import torch


def _wait():
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing before each clock read."""
    work()
    sync()
    samples = []
    for _ in range(repeats):
        start = clock()
        work()
        _wait()  # the standard way to wait for the GPU
        samples.append(clock() - start)
    return statistics.median(samples)


answer = time_fn
