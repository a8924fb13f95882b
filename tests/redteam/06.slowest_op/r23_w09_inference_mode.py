# expect: fail runs the warm-up and the profiled call under torch.inference_mode(): autograd is off, so fn's backward ops are never run (a training step raises), and the profile is of different work from what fn normally does
# hint: inference_mode|no_grad|grad|autograd|backward|training
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    # we only want timings, so skip autograd's bookkeeping
    with torch.inference_mode():
        fn(*args)  # warm-up
        if gpu:
            torch.cuda.synchronize(device)
        with profile(activities=activities) as prof:
            fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
