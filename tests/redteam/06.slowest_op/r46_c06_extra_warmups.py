# expect: pass three warm-up calls (judged right: the prompt now says more warm-up calls do no harm, as 02.time_fn's does; the profiled call is the same)
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    for _ in range(3):  # "a few warm-up steps are safer than one"
        fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
