# expect: fail ranks by self CPU memory allocated (profile_memory=True), not by self time
# hint: memory|self time|self_cpu_time
import torch
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts, profile_memory=True) as prof:
        fn(*args)
    attr = "self_device_memory_usage" if gpu else "self_cpu_memory_usage"
    return max(prof.key_averages(), key=lambda e: getattr(e, attr)).key
