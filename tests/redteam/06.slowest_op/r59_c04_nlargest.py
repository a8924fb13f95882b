# expect: pass a function with a different name, picked with heapq.nlargest over (self time, key) pairs, named through the name header
# hint:
# name: find_hot_operator
import heapq

import torch
from torch.profiler import ProfilerActivity, profile


def _activities(dev):
    if dev.type == "cuda":
        return [ProfilerActivity.CPU, ProfilerActivity.CUDA]
    return [ProfilerActivity.CPU]


def _self_time(row, dev):
    return row.self_device_time_total if dev.type == "cuda" else row.self_cpu_time_total


def find_hot_operator(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    dev = torch.device(device)
    fn(*args)
    fn(*args)  # two warm-ups: harmless
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)
    with profile(activities=_activities(dev)) as prof:
        fn(*args)
    rows = prof.key_averages()
    (_, name), = heapq.nlargest(1, ((_self_time(r, dev), r.key) for r in rows), key=lambda p: p[0])
    return name
