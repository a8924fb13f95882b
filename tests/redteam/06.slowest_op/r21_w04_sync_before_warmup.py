# expect: fail synchronizes before the warm-up call instead of after it: the warm-up's queued GPU work is still running when the profile starts
# hint: after the warm-?up|before the warm-?up|synchroni[sz]e|order|still running|queued
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    if gpu:
        torch.cuda.synchronize(device)  # start from an idle GPU
    fn(*args)  # warm-up
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
