# expect: fail decides GPU-or-CPU by torch.cuda.is_available() instead of the device given: on a GPU machine with device cpu it adds CUDA activity and reads the (zero) device column
# hint: device|cuda activity|is_available|self_cpu|cpu
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    on_gpu = torch.cuda.is_available()  # "is there a GPU?"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize()
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
