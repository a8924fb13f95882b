# expect: fail reads self_device_time_total on the CPU too (all zero there: returns an arbitrary row)
# hint: self_cpu|cpu|device time|zero|column
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU]
    if device.type == "cuda":
        acts.append(ProfilerActivity.CUDA)
    with profile(activities=acts) as prof:
        fn(*args)
    # device time: where the work is done, on whatever device it is
    return max(prof.key_averages(), key=lambda e: e.self_device_time_total).key
