# expect: fail wraps the call in record_function and ranks by total CPU time, so it returns its own label
# hint: self|total|label|record_function
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


from torch.profiler import record_function


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    d2lgpu.sync(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        with record_function("call"):
            fn(*args)
    return max(prof.key_averages(), key=lambda e: e.cpu_time_total).key


answer = slowest_op
