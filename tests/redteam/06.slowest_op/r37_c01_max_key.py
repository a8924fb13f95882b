# expect: pass context-manager profile, max() over key_averages by the self column of the device
# hint:
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)  # warm-up: first-call costs are not the operator's
    if on_gpu:
        torch.cuda.synchronize(device)  # the warm-up's kernels finish before profiling
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
