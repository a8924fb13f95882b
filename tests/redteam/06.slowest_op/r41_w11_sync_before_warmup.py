# expect: fail synchronizes before the warm-up instead of after it, so the warm-up's kernels still run into the profile
# hint: (synchron|sync|after)
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    if gpu:
        torch.cuda.synchronize(device)
    fn(*args)  # warm-up
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
