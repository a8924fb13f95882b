# expect: pass functools.partial over a general helper with a configurable number of warm-up calls (three here)
# hint:
import functools
from operator import attrgetter

import torch
from torch.profiler import ProfilerActivity, profile


def _top_self_time(fn, args, device, *, warmups=1):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    for _ in range(warmups):
        fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
        activities = (ProfilerActivity.CPU, ProfilerActivity.CUDA)
        column = attrgetter("self_device_time_total")
    else:
        activities = (ProfilerActivity.CPU,)
        column = attrgetter("self_cpu_time_total")
    with profile(activities=list(activities)) as prof:
        fn(*args)
    return max(prof.key_averages(), key=column).key


slowest_op = functools.partial(_top_self_time, warmups=3)
answer = slowest_op
