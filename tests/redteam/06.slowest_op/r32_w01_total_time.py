# expect: fail picks the largest total time (cpu_time_total) instead of self time, so a wrapper like aten::matmul wins
# hint: self|total
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    d2lgpu.sync(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    attr = "device_time_total" if on_gpu else "cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, attr)).key


answer = slowest_op
