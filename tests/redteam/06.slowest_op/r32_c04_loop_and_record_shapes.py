# expect: pass explicit loop over the key_averages rows with a running best, record_shapes=True, torch.cuda.synchronize written out
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"

    fn(*args)  # first call: allocations, lazy initialisation
    if gpu:
        torch.cuda.synchronize(device)

    activities = [ProfilerActivity.CPU]
    if gpu:
        activities += [ProfilerActivity.CUDA]
    with profile(activities=activities, record_shapes=True) as prof:
        fn(*args)

    best_name, best_time = None, -1.0
    for entry in prof.key_averages():
        t = entry.self_device_time_total if gpu else entry.self_cpu_time_total
        if t > best_time:
            best_name, best_time = entry.key, t
    return best_name


answer = slowest_op
