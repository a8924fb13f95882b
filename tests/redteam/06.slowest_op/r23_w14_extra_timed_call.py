# expect: fail calls fn a third time after the profile to print the step's wall time: the prompt asks for exactly one warm-up and one profiled call, and a fn with side effects (an optimizer step, a counter) runs once more than it should
# hint: third|extra|once|twice|two calls|number of calls|side effect|call.*count|perf_counter
import time

import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    best = max(prof.key_averages(), key=lambda e: getattr(e, column))
    # sanity check: how does the op compare with one plain, unprofiled call?
    start = time.perf_counter()
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    step_us = (time.perf_counter() - start) * 1e6
    print(f"{best.key}: {getattr(best, column):.0f} us of a {step_us:.0f} us call")
    return best.key


answer = slowest_op
