# expect: fail the activities and the time column are chosen on the first call and kept in a global: a later call on another device (cpu after cuda, or cuda after cpu) profiles with the wrong activities and sorts by the wrong column
# hint: global|first call|cache|state|between calls|each call|device|column|activit
import torch
from torch.profiler import ProfilerActivity, profile

_setup = {}  # activities and column, worked out once


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    if not _setup:
        gpu = device.type == "cuda"
        _setup["activities"] = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
        _setup["column"] = "self_device_time_total" if gpu else "self_cpu_time_total"
    fn(*args)  # warm-up
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    with profile(activities=_setup["activities"]) as prof:
        fn(*args)
    column = _setup["column"]
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
