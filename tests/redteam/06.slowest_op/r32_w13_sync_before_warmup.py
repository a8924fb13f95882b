# expect: fail synchronizes before the warm-up instead of after it, so on a GPU the warm-up's kernels still run when the profile starts
# hint: sync|after
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    d2lgpu.sync(device)
    fn(*args)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, attr)).key


answer = slowest_op
