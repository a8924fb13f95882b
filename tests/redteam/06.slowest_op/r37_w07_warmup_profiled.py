# expect: fail the warm-up call runs inside the profiler, so its first-call costs are counted
# hint: warm.?up|first call|outside|before (the )?profil|twice|two calls
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    with profile(activities=acts) as prof:
        fn(*args)  # warm-up
        if gpu:
            torch.cuda.synchronize(device)
        fn(*args)  # the call we care about
    col = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, col)).key
