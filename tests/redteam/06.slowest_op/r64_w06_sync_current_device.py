# expect: fail torch.cuda.synchronize() without the device: syncs the current GPU, not `device` (wrong for cuda:1)
# hint: sync|current (gpu|device)|device index|cuda:1|other (gpu|device)
# Wrong: the prompt says synchronize `device`; with no argument only the current device is
# synchronized, so a warm-up on cuda:1 (current device cuda:0) is still running.
import torch
from torch.profiler import ProfilerActivity, profile


def answer(fn, args, device):
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize()
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
