# expect: fail profiles only CPU activity even on a GPU, so the device columns stay empty
# hint: (ProfilerActivity\.CUDA|CUDA activity|activit)
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
