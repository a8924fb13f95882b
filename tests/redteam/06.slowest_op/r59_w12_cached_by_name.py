# expect: fail caches the answer by the function's name, so a second, different fn with the same name (or new args) gets the old answer
# hint: cach|stale|memo|reuse|previous|earlier|every call|same name
import torch
from torch.profiler import ProfilerActivity, profile

_profiled = {}  # profiling is slow: remember what we found


def slowest_op(fn, args, device):
    device = torch.device(device)
    key = (getattr(fn, "__qualname__", repr(fn)), str(device))
    if key in _profiled:
        return _profiled[key]
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    field = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    best = max(prof.key_averages(), key=lambda e: getattr(e, field))
    _profiled[key] = best.key
    return best.key


answer = slowest_op
