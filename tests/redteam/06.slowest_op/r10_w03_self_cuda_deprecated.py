# expect: fail uses the deprecated/removed self_cuda_time_total column on every device (AttributeError, and wrong on the CPU)
# hint: self_cuda|deprecat|self_device|self_cpu|attribute
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    fn(*args)
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize(device)
        activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
    else:
        activities = [ProfilerActivity.CPU]
    with profile(activities=activities) as prof:
        fn(*args)
    top = None
    for event in prof.key_averages():
        if top is None or event.self_cuda_time_total > top.self_cuda_time_total:
            top = event
    return top.key


answer = slowest_op
