# expect: fail synchronizes before the warm-up, not after: the warm-up's kernels may still run when the profile starts
# hint: sync|synchron
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    if on_gpu:
        torch.cuda.synchronize(device)  # start from an idle GPU
    fn(*args)  # warm-up: on a GPU only queued
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
