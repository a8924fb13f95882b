# expect: fail caches the answer by the function's name: a second call with another fn of the same name (or other args) returns a stale name
# hint: cach|memo|stale|second call|previous|earlier call|same name|reuse
# Wrong: profiling is "expensive", so the result is remembered per (fn.__qualname__, device);
# every lambda shares the name "<lambda>", and args are ignored.
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu

_seen = {}


def answer(fn, args, device):
    key = (getattr(fn, "__qualname__", repr(fn)), str(device))
    if key in _seen:
        return _seen[key]
    on_gpu = torch.device(device).type == "cuda"
    fn(*args)
    d2lgpu.sync(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    _seen[key] = max(prof.key_averages(), key=lambda e: getattr(e, column)).key
    return _seen[key]
