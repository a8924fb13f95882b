# expect: pass
# hint: 
import operator

import torch
from torch.profiler import ProfilerActivity, profile


def answer(fn, args, device):
    is_cuda = device.type == "cuda"
    fn(*args)  # warm-up
    if is_cuda:
        torch.cuda.synchronize(device)
    with profile(
        activities=[ProfilerActivity.CPU] + [ProfilerActivity.CUDA] * is_cuda,
    ) as prof:
        fn(*args)
    metric = operator.attrgetter(
        "self_device_time_total" if is_cuda else "self_cpu_time_total"
    )
    table = list(prof.key_averages())
    table.sort(key=metric)
    return table[-1].key
