# expect: fail always reads self_device_time_total, which is zero for every operator on the CPU
# hint: device|cuda|gpu|zero|self_cpu|cpu (column|time)
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
    column = "self_device_time_total"  # used on the CPU too
    return max(averages, key=lambda e: getattr(e, column)).key


answer = slowest_op
