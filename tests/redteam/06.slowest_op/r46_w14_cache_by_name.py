# expect: fail remembers the answer between calls, keyed by fn.__name__: a second, different fn with the same name (two lambdas) gets the stale name without being profiled
# hint: cache|stale|between calls|state|memo|same name|each call|profil
import torch
from torch.profiler import ProfilerActivity, profile

_seen = {}


def slowest_op(fn, args, device):
    device = torch.device(device)
    key = (getattr(fn, "__name__", repr(fn)), device.type)
    if key in _seen:  # profiling is slow: reuse what we found for this function
        return _seen[key]
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    _seen[key] = max(prof.key_averages(), key=lambda e: getattr(e, column)).key
    return _seen[key]


answer = slowest_op
