# expect: fail on a GPU reads self_cpu_time_total (launch time) instead of self_device_time_total
# hint: device|self_device|cuda|gpu
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
    return max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key


answer = slowest_op
