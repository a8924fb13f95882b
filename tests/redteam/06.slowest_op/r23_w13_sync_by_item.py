# expect: fail waits for the warm-up by reading its output (.sum().item()) instead of synchronizing the device: it adds a host read, waits only for the stream that made the output, and crashes when fn returns None (a training step) or a non-tensor
# hint: item|synchron|return.*None|None|host|output|device
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    out = fn(*args)  # warm-up
    # reading a value back forces the warm-up to finish, on any device
    out.sum().item()
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
