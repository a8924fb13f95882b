# expect: fail ranks by TOTAL time (cpu_time_total / device_time_total, children included), not self time
# hint: (?<!self_)(cpu|device|cuda)_time_total|\btotal\b|child|callee|includ|nested
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
    column = "device_time_total" if gpu else "cpu_time_total"
    return max(averages, key=lambda e: getattr(e, column)).key


answer = slowest_op
