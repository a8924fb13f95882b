# expect: fail memoizes the answer per (fn, device), ignoring args: a second call with other arguments gets the stale name
# hint: cache|memo|stale|previous|state|again|second call|earlier call|args|argument
import torch
from torch.profiler import ProfilerActivity, profile

_seen = {}  # profiling is slow: remember what each function's slowest operator was


def slowest_op(fn, args, device):
    device = torch.device(device)
    key = (fn, str(device))
    if key in _seen:
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
