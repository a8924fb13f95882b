# expect: pass functools.partial for the call, explicit prof.start()/stop() in try/finally, a manual loop for the maximum
# hint:
import functools

import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    dev = device if isinstance(device, torch.device) else torch.device(device)
    call = functools.partial(fn, *args)
    call()  # warm-up
    gpu = dev.type == "cuda"
    if gpu:
        torch.cuda.synchronize(dev)
    prof = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU])
    prof.start()
    try:
        call()
    finally:
        prof.stop()
    best_key, best_time = None, float("-inf")
    for entry in prof.key_averages():
        t = entry.self_device_time_total if gpu else entry.self_cpu_time_total
        if t > best_time:
            best_key, best_time = entry.key, t
    return best_key


answer = slowest_op
