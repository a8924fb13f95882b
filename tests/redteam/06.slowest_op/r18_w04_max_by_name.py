# expect: fail max() keyed on the operator's name: returns the alphabetically last operator, not the slowest
# hint: alphabet|lexicograph|by (its |the )?names?|name order|sort(ed|ing)? (by )?name|string order
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
    # the entry whose name sorts last, not the one with the largest time
    return max(averages, key=lambda e: e.key).key


answer = slowest_op
