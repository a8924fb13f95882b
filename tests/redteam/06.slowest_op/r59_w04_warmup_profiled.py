# expect: fail does the warm-up call inside the profile, so the cold first call is recorded too
# hint: warm.?up|first call|cold|outside the profile|before (the )?profil
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
    field = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    best = max(prof.key_averages(), key=lambda e: getattr(e, field))
    return best.key


answer = slowest_op
