# expect: fail ranks operators by total CPU time (cpu_time_total) instead of self time
# hint: self|total|children|inclusive
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    field = "device_time_total" if on_gpu else "cpu_time_total"
    best = max(prof.key_averages(), key=lambda e: getattr(e, field))
    return best.key


answer = slowest_op
