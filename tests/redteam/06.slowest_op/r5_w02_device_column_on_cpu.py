# expect: fail always ranks by self_device_time_total, which is zero for every entry on the CPU, so max returns the first entry
# hint: device|cpu column|self_cpu|zero
import torch
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts) as prof:
        fn(*args)
    # the device column is "what the hardware does", so use it everywhere
    return max(prof.key_averages(), key=lambda e: e.self_device_time_total).key
