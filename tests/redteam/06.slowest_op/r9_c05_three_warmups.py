# expect: pass
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile


def answer(fn, args, device):
    # a few warm-up calls instead of one: caches, allocator and lazy init settled
    for _ in range(3):
        fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
        col = "self_device_time_total"
    else:
        acts = [ProfilerActivity.CPU]
        col = "self_cpu_time_total"
    with profile(activities=acts) as prof:
        fn(*args)
    return max(prof.key_averages(), key=lambda e: getattr(e, col)).key
