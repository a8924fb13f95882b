# expect: fail never synchronizes the GPU after the warm-up, so queued warm-up kernels leak into the profile
# hint: (synchron|sync)
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    gpu = torch.device(device).type == "cuda"
    fn(*args)  # warm-up
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
