# expect: fail always ranks by self_device_time_total, which is 0 for every row on the CPU
# hint: device column
import torch
from torch.profiler import ProfilerActivity, profile


def answer(fn, args, device):
    fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    with profile(activities=acts) as prof:
        fn(*args)
    return max(prof.key_averages(), key=lambda e: e.self_device_time_total).key
