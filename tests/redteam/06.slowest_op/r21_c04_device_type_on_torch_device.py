# expect: pass reads device.type directly (relabelled: the prompt's device is a torch.device, the notebook's d2lgpu.try_gpu(), and the solution reads device.type too; nothing in the prompt lets device be a string)
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
