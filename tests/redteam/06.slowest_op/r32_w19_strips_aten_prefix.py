# expect: fail returns the operator name without its aten:: namespace (mm instead of aten::mm), not the .key
# hint: key|name|aten
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
    key = max(prof.key_averages(), key=lambda e: getattr(e, attr)).key
    return key.split("::")[-1]


answer = slowest_op
