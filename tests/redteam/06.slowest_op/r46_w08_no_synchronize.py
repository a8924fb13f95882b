# expect: fail never synchronizes the GPU after the warm-up: the warm-up's kernels still run when the profile starts
# hint: sync|synchron
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)  # warm-up; "the profiler synchronizes anyway"
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
