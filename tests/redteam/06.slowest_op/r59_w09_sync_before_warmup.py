# expect: fail synchronizes the GPU before the warm-up instead of after it, so the warm-up's kernels can still run into the profile
# hint: synchron|sync|after the warm.?up|queued|still running
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    if on_gpu:
        torch.cuda.synchronize(device)
    fn(*args)  # warm-up
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    field = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    best = max(prof.key_averages(), key=lambda e: getattr(e, field))
    return best.key


answer = slowest_op
