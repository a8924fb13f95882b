# expect: fail on a GPU sorts by device_time_total (total, children included) instead of self_device_time_total, so a wrapper such as aten::conv2d or aten::linear wins over the op that runs the kernel; the CPU branch is right, so it shows only on a GPU
# hint: self|total|child|includ|wrapper|device_time_total
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    if gpu:
        # on the GPU the device column is what counts (CPU only launches)
        key = lambda e: e.device_time_total
    else:
        key = lambda e: e.self_cpu_time_total
    return max(prof.key_averages(), key=key).key


answer = slowest_op
