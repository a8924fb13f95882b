# expect: fail on a machine with a GPU it times with CUDA events on the current stream instead of the given clock and sync: work queued elsewhere (the checker's simulated device, another stream, the CPU) is not between the events, and the caller's clock is ignored; without a GPU it behaves correctly, so it passes on a CPU machine only.
# hint: (clock|sync\(\)|given|cuda.?event|elapsed_time|ignor|stream|is_available|gpu machine)
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    samples = []
    for _ in range(repeats):
        if torch.cuda.is_available():  # GPU-side timestamps: no host overhead
            begin = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            begin.record()
            work()
            end.record()
            end.synchronize()
            samples.append(begin.elapsed_time(end) / 1e3)
        else:
            start = clock()
            work()
            sync()
            samples.append(clock() - start)
    return statistics.median(samples)


answer = time_fn
