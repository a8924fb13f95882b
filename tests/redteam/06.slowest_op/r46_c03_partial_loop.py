# expect: pass functools.partial over a general helper; an explicit loop keeps the best row
# hint:
import functools

import torch
from torch.profiler import ProfilerActivity, profile


def _largest_self(fn, args, device, *, warmups, cpu_column, gpu_column):
    device = torch.device(device)
    is_cuda = device.type == "cuda"
    for _ in range(warmups):
        fn(*args)
    if is_cuda:
        torch.cuda.synchronize(device)
    with profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] if is_cuda else [ProfilerActivity.CPU]
    ) as prof:
        fn(*args)
    column = gpu_column if is_cuda else cpu_column
    best_name, best_time = None, float("-inf")
    for row in prof.key_averages():
        t = getattr(row, column)
        if t > best_time:
            best_name, best_time = row.key, t
    return best_name


answer = functools.partial(
    _largest_self, warmups=1, cpu_column="self_cpu_time_total", gpu_column="self_device_time_total"
)
