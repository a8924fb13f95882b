# expect: fail warms up only the first time it sees a function; later calls profile a cold first call
# hint: warm
import torch
from torch.profiler import ProfilerActivity, profile

_warmed = set()  # ids of functions already warmed up in this process


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    if id(fn) not in _warmed:  # warm-up is a one-time cost
        fn(*args)
        _warmed.add(id(fn))
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, attr)).key


answer = slowest_op
