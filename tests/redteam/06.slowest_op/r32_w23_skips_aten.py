# expect: fail skips every aten:: entry as an internal detail and returns the slowest of the rest
# hint: aten|operator|self
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
    rows = [e for e in prof.key_averages() if not e.key.startswith("aten::")] or list(prof.key_averages())
    return max(rows, key=lambda e: getattr(e, attr)).key


answer = slowest_op
