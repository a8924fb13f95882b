# expect: fail on a GPU profiles ProfilerActivity.CUDA alone, without the CPU activity the prompt asks for: no aten operator is recorded, so it can only return a kernel's name, never an operator's
# hint: ProfilerActivity\.CPU|cpu activit|activit|operator|aten|kernel
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    # on a GPU only the device's work matters, so record just that
    activities = [ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
