# expect: fail ranks by the formatted string column self_cpu_time_total_str, which compares text ('9.0us' > '12ms')
# hint: str|text|self_cpu_time_total\b|number
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
    attr = "self_device_time_total_str" if on_gpu else "self_cpu_time_total_str"
    return max(prof.key_averages(), key=lambda e: getattr(e, attr)).key


answer = slowest_op
