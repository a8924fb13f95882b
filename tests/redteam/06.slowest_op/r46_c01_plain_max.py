# expect: pass plain max() over key_averages with a lambda picking the self column by device
# hint:
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if on_gpu:
        torch.cuda.synchronize(device)  # the warm-up's kernels done before the profile starts
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda event: getattr(event, column)).key


answer = slowest_op
