# expect: fail ranks by total time (cpu_time_total / device_time_total), not self time
# hint: self
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "device_time_total" if gpu else "cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
