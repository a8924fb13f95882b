# expect: fail assumes key_averages() is already sorted by time and returns its first entry
# hint: sort|order|rank|first (entry|row|one)|\[0\]
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    averages = prof.key_averages()
    return averages[0].key  # key_averages() is in first-seen order, not by time


answer = slowest_op
