# expect: fail always reads self_cpu_time_total, which on a GPU measures only launching the kernels
# hint: device|cuda|gpu|launch|self_device
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    averages = prof.key_averages()
    column = "self_cpu_time_total"  # used on a GPU too
    return max(averages, key=lambda e: getattr(e, column)).key


answer = slowest_op
