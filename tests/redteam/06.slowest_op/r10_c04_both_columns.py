# expect: pass reads both self columns for every row and ranks by the one that fits the device
# hint: -
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(ProfilerActivity.CUDA)
    with profile(activities=activities) as prof:
        fn(*args)
    rows = [(e.key, e.self_cpu_time_total, e.self_device_time_total) for e in prof.key_averages()]
    # on a GPU the CPU column only measures launching; the device column is the work
    index = 2 if device.type == "cuda" else 1
    name, *_ = max(rows, key=lambda row: row[index])
    return name


answer = slowest_op
