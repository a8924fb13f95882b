# expect: pass sorted(..., reverse=True) with operator.attrgetter on a column picked by name; args passed as a list copy
# hint: 
# name: slowest_op
from operator import attrgetter

import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    kind = torch.device(device).type
    args = list(args)
    fn(*args)
    if kind == "cuda":
        torch.cuda.synchronize(device)
        activities, column = [ProfilerActivity.CPU, ProfilerActivity.CUDA], "self_device_time_total"
    else:
        activities, column = [ProfilerActivity.CPU], "self_cpu_time_total"
    with profile(activities=activities) as prof:
        fn(*args)
    ranked = sorted(prof.key_averages(), key=attrgetter(column), reverse=True)
    return str(ranked[0].key)
