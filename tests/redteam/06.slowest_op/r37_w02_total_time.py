# expect: fail ranks by total (inclusive) time instead of self time
# hint: self|total|inclusive|children|calls? (aten::)?mm
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    with profile(activities=acts) as prof:
        fn(*args)
    # the time each operator costs, everything it does included
    col = "device_time_total" if gpu else "cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, col)).key
