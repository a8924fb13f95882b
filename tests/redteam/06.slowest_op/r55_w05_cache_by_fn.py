# expect: fail caches the answer per fn, so a later call with other args (or changed work) returns a stale name
# hint: cach|stale|memo|previous|earlier|state|each call|every call|again
import torch
from torch.profiler import ProfilerActivity, profile

_seen = {}  # profiling is expensive: remember the answer for each function


def slowest_op(fn, args, device):
    if fn in _seen:
        return _seen[fn]
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    _seen[fn] = max(prof.key_averages(), key=lambda e: getattr(e, attr)).key
    return _seen[fn]


answer = slowest_op
