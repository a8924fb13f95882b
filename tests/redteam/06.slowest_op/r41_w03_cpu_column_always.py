# expect: fail always ranks by self_cpu_time_total, even on a GPU where the CPU column only measures launching
# hint: (self_device_time_total|device time|device column|launch)
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    return max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key
