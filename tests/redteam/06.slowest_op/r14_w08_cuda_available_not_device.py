# expect: fail decides GPU vs CPU from torch.cuda.is_available() instead of the device argument
# hint: device argument|device\.type|is_available|the device (passed|given)|cpu device|wrong (column|device)
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    on_gpu = torch.cuda.is_available()
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize()
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
