# expect: fail no warm-up call: profiles fn's first call
# hint: warm.?up|first call|once before
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    if gpu:
        torch.cuda.synchronize(device)  # start from an idle GPU
    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    with profile(activities=acts) as prof:
        fn(*args)
    col = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, col)).key
