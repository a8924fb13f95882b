# expect: fail profiles the very first (cold) call: no warm-up call before the profile
# hint: warm.?up|first call|cold|one.?time
# Wrong: the prompt says to call fn once to warm up first; the first call's one-time costs
# (allocations, kernel selection, lazy init) can make another operator look slowest.
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def answer(fn, args, device):
    on_gpu = torch.device(device).type == "cuda"
    d2lgpu.sync(device)  # start from an idle device
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
