# expect: fail profiles the FIRST call and runs the "warm-up" call after the profile (order swapped)
# hint: warm|first call
import torch
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    gpu = device.type == "cuda"
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts) as prof:
        fn(*args)
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    attr = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, attr)).key
