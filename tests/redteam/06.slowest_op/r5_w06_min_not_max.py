# expect: fail slip: min instead of max, so it returns the operator with the SMALLEST self time
# hint: smallest|largest|min|slowest
import torch
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts) as prof:
        fn(*args)
    attr = "self_device_time_total" if gpu else "self_cpu_time_total"
    return min(prof.key_averages(), key=lambda e: getattr(e, attr)).key
