# expect: pass sorted() by attrgetter, reverse; d2lgpu.sync after the warm-up
# hint: 
from operator import attrgetter

import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up, not profiled
    d2lgpu.sync(device)  # a CPU needs none; a GPU finishes the warm-up's kernels
    activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    with profile(activities=activities) as prof:
        fn(*args)
    by = attrgetter("self_device_time_total" if gpu else "self_cpu_time_total")
    ranked = sorted(prof.key_averages(), key=by, reverse=True)
    print(f"slowest: {ranked[0].key} ({by(ranked[0]):.0f} us self)")
    return ranked[0].key


answer = slowest_op
