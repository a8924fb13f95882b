# expect: pass functools.partial for the profiler, three warm-ups, sorted() with attrgetter
# hint:
import functools
import operator

import torch
from torch.profiler import ProfilerActivity, profile

_cpu_profile = functools.partial(profile, activities=[ProfilerActivity.CPU])
_gpu_profile = functools.partial(profile, activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    for _ in range(3):  # more warm-up does no harm
        fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    with (_gpu_profile if on_gpu else _cpu_profile)() as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    ranked = sorted(prof.key_averages(), key=operator.attrgetter(column), reverse=True)
    return ranked[0].key


answer = slowest_op
