# expect: fail skips the warm-up when a function of the same __name__ was warmed up before; every lambda (or any two functions sharing a name) after the first is profiled cold, on its first call
# hint: warm|first call|cold|__name__|name|cache|seen|state|between calls|every call
import torch
from torch.profiler import ProfilerActivity, profile

_warmed_up = set()  # functions already warmed up in this process


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    tag = getattr(fn, "__qualname__", repr(fn))
    if tag not in _warmed_up:  # warm-up only matters the first time
        fn(*args)
        if gpu:
            torch.cuda.synchronize(device)
        _warmed_up.add(tag)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
