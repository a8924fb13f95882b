# expect: fail picks the operator called the most times (count), not the one with the largest self time
# hint: calls|count|how (many|often)|number of|frequen
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
    return max(averages, key=lambda e: e.count).key


answer = slowest_op
