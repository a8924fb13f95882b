# expect: fail uses self_cpu_time_total on a GPU too
# hint: self_device_time_total
import torch
from torch.profiler import profile, ProfilerActivity
def answer(fn, args, device):
    fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize()
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    with profile(activities=acts) as prof:
        fn(*args)
    return max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key
