# expect: fail takes the single event with the largest self time from prof.events() (one call) instead of the per-name totals of key_averages(), so an op called many times loses
# hint: key_averages|total|sum|calls|all calls|averag
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
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.events(), key=lambda e: getattr(e, attr)).key


answer = slowest_op
