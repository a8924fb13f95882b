# expect: pass functools.reduce to keep the larger row; profile with profile_memory off and with_stack off explicitly
# hint: 
# name: slowest_op
import functools

import torch
from torch.profiler import ProfilerActivity, profile


def _self_time(row, gpu):
    return row.self_device_time_total if gpu else row.self_cpu_time_total


def slowest_op(fn, args, device):
    gpu = torch.device(device).type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(torch.device(device))
    activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA][: 2 if gpu else 1]
    with profile(activities=activities, profile_memory=False, with_stack=False) as prof:
        fn(*args)
    top = functools.reduce(
        lambda a, b: b if _self_time(b, gpu) > _self_time(a, gpu) else a, prof.key_averages()
    )
    return top.key
