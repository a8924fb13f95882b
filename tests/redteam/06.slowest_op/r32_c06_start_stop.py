# expect: pass starts and stops the profiler explicitly (prof.start()/prof.stop()) instead of a with block
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def slowest_op(fn, args, device):
    device = torch.device(device)
    cuda = device.type == "cuda"
    fn(*args)
    if cuda:
        torch.cuda.synchronize(device)
    prof = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] if cuda else [ProfilerActivity.CPU])
    prof.start()
    try:
        fn(*args)
    finally:
        prof.stop()
    field = "self_device_time_total" if cuda else "self_cpu_time_total"
    table = prof.key_averages()
    return max(table, key=lambda r: getattr(r, field)).key


answer = slowest_op
