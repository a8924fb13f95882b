# expect: fail ranks by self CPU time on a GPU too (launch time, not the device's work)
# hint: device|cuda|gpu|launch|self_device|kernel
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
    return max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key
