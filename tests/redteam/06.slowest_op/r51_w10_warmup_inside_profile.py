# expect: fail the warm-up call runs inside the profiler: two calls are profiled, first-call costs included
# hint: warm|twice|two calls|both calls|more than one|one (more )?call|once
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
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
