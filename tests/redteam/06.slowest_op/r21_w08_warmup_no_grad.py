# expect: fail runs the warm-up under torch.no_grad() "so it changes nothing": a training fn's backward raises there, and a forward-only warm-up leaves autograd's first-call costs in the profile
# hint: no_grad|grad|autograd|backward|warm-?up (differ|path)|inference
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    with torch.no_grad():  # a warm-up should not leave gradients behind
        fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
