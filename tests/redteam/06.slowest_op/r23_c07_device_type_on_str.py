# expect: pass device.type read without torch.device(device): right for the prompt's device, a torch.device (a string is not among the inputs the prompt names); relabelled right
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    gpu = device.type == "cuda"
    fn(*args)  # warm-up: first calls are slow for unrelated reasons
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU]
    if gpu:
        activities.append(ProfilerActivity.CUDA)
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
