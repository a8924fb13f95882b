# expect: pass synchronizes via torch.cuda.synchronize(device=...) keyword, then ranks with heapq.nlargest
# hint: 
# name: slowest_op
import heapq

import torch
from torch import profiler


def slowest_op(fn, args, device):
    if not isinstance(device, torch.device):
        device = torch.device(device)
    fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize(device=device)
        acts = [profiler.ProfilerActivity.CUDA, profiler.ProfilerActivity.CPU]
        key = lambda r: r.self_device_time_total  # noqa: E731
    else:
        acts = [profiler.ProfilerActivity.CPU]
        key = lambda r: r.self_cpu_time_total  # noqa: E731
    with profiler.profile(activities=acts) as p:
        fn(*args)
    (top,) = heapq.nlargest(1, p.key_averages(), key=key)
    return top.key
