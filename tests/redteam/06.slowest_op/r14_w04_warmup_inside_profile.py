# expect: fail the warm-up call is inside the profiled region, so the profile includes the first call
# hint: warm.?up|inside|profiled region|outside|first call|before (the )?profil
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)  # warm-up
        if on_gpu:
            torch.cuda.synchronize(device)
        fn(*args)  # the measured call
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
