# expect: pass profiler started and stopped by hand (no with), torch.accelerator.synchronize, activities from a set, min over negated self times
# hint: 
import torch
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.accelerator.synchronize(device)
    activities = {ProfilerActivity.CPU}
    if on_gpu:
        activities.add(ProfilerActivity.CUDA)
    prof = profile(activities=list(activities))
    prof.start()
    try:
        fn(*args)
    finally:
        prof.stop()
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    best = min(prof.key_averages(), key=lambda evt: -getattr(evt, column))
    return str(best.key)
