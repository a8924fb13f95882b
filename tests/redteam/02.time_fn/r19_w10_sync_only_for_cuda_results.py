# expect: fail calls sync() only when work() returned a CUDA tensor, so other asynchronous work (the simulated device) is never waited for
# hint: sync|wait|launch|cuda tensor|is_cuda|return(ed)? value
import statistics
import time

import torch


def _needs_sync(result):
    return isinstance(result, torch.Tensor) and result.is_cuda


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), syncing only when there is GPU work to wait for."""
    if _needs_sync(work()):
        sync()
    times = []
    for _ in range(repeats):
        start = clock()
        result = work()
        if _needs_sync(result):  # the CPU needs no wait
            sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
