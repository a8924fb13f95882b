# expect: pass functools.partial over a helper taking the column name; explicit prof.start()/stop(); loop with running best
# hint:
import functools
import torch
from torch.profiler import profile, ProfilerActivity


def _slowest(fn, args, device, cpu_col="self_cpu_time_total", gpu_col="self_device_time_total"):
    gpu = torch.device(device).type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(torch.device(device))
    prof = profile(activities=[ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else []))
    prof.start()
    fn(*args)
    prof.stop()
    col = gpu_col if gpu else cpu_col
    best_key, best_t = None, float("-inf")
    for e in prof.key_averages():
        t = getattr(e, col)
        if t > best_t:
            best_key, best_t = e.key, t
    return best_key


answer = functools.partial(_slowest, cpu_col="self_cpu_time_total")
