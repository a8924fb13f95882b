# expect: pass sorts the averaged events in descending order and takes the first, torch.cuda.synchronize(device) written out
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def slowest_op(fn, args, device):
    is_cuda = str(device).startswith("cuda")
    fn(*args)
    if is_cuda:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU]
    if is_cuda:
        acts.append(ProfilerActivity.CUDA)
    with profile(activities=acts) as prof:
        fn(*args)
    rows = prof.key_averages()
    if is_cuda:
        ranked = sorted(rows, key=lambda r: r.self_device_time_total, reverse=True)
    else:
        ranked = sorted(rows, key=lambda r: r.self_cpu_time_total, reverse=True)
    return ranked[0].key


answer = slowest_op
