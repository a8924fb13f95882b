# expect: fail on a GPU profiles CUDA activity only (no CPU activity), so operators vanish and a kernel's name comes back
# hint: cpu activity|ProfilerActivity\.CPU|activit|kernel|operator
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    # the GPU's own work is what matters on a GPU
    activities = [ProfilerActivity.CUDA] if on_gpu else [ProfilerActivity.CPU]
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
