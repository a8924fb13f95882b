# expect: fail on a GPU reads self_cpu_time_total (launch time) instead of self_device_time_total
# hint: self_device|device (time|column)|gpu time|cuda time|launch
# Wrong: records CUDA activity on a GPU, but always ranks by the CPU column, which on a GPU
# only measures launching kernels. Right on the CPU only.
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def answer(fn, args, device):
    device = torch.device(device)
    fn(*args)
    d2lgpu.sync(device)
    activities = [ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(ProfilerActivity.CUDA)
    with profile(activities=activities) as prof:
        fn(*args)
    table = prof.key_averages()
    return max(table, key=lambda e: e.self_cpu_time_total).key
