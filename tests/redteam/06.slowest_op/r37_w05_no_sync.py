# expect: fail no synchronize after the warm-up: the warm-up's queued GPU work leaks into the profile
# hint: synchron|sync|queued|still running|warm.?up.*(finish|done)
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    with profile(activities=acts) as prof:
        fn(*args)
    col = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, col)).key
