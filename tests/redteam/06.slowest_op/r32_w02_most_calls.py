# expect: fail picks the operator with the most calls (count) instead of the largest self time
# hint: count|call|time
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
    return max(prof.key_averages(), key=lambda e: e.count).key


answer = slowest_op
