# expect: fail skips rows whose name contains "backward" (thinking them autograd bookkeeping): a convolution_backward that does the most work is never returned
# hint: backward|filter|skip|exclud|autograd
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
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    ops = [e for e in prof.key_averages() if "backward" not in e.key.lower()]
    return max(ops, key=lambda e: getattr(e, column)).key


answer = slowest_op
