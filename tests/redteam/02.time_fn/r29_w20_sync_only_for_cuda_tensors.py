# expect: fail calls sync() only when work() returned a CUDA tensor ("no need to wait on the CPU"): work that returns nothing, a tuple, or a CPU tensor while queueing device work (the checker's simulated device, in-place updates, a whole step) is never waited for, so the timer reports the launch.
# hint: (sync\(\)|synchroniz|launch|without (a )?sync|forg[eo]t|skip|condition|return(s|ed)? (value|nothing|none)|is_cuda|isinstance|~?10 ?us|wait)
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""

    def run_and_wait():
        out = work()
        if isinstance(out, torch.Tensor) and out.is_cuda:
            sync()  # only device work needs waiting for

    run_and_wait()
    samples = []
    for _ in range(repeats):
        start = clock()
        run_and_wait()
        samples.append(clock() - start)
    return statistics.median(samples)


answer = time_fn
