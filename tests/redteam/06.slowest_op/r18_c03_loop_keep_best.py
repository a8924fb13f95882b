# expect: pass a plain loop that keeps the entry with the largest self time seen so far
# hint: 
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
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    best_name, best_time = None, -1.0
    for entry in averages:
        t = getattr(entry, column)
        if t > best_time:
            best_name, best_time = entry.key, t
    return best_name


answer = slowest_op
