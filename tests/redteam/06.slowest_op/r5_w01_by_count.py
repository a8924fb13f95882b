# expect: fail ranks operators by their number of calls (count) instead of self time
# hint: count|calls|number of calls|self
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
    return max(prof.key_averages(), key=lambda e: e.count).key
