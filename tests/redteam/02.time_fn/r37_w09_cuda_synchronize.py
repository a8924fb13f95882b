# expect: fail syncs CUDA directly instead of calling the given sync(), so the device's job is not waited for
# hint: (sync|launch|asynchron|wait|cuda\.synchronize)
# name: time_fn
import statistics
import time

import torch


def _barrier():
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    _barrier()
    results = []
    for _ in range(repeats):
        _barrier()
        t0 = clock()
        work()
        _barrier()
        results.append(clock() - t0)
    return statistics.median(results)
