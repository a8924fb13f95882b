# expect: fail picks the operator with the most calls (count) instead of the most self time
# hint: \bcount\b|number of calls|most calls|how often|call count|# of calls|times? (it is |it's )?called
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    # the "busiest" operator: the one called most often
    return max(prof.key_averages(), key=lambda e: e.count).key


answer = slowest_op
