# expect: fail takes the single longest event from prof.events() instead of the key_averages() entry (summed over calls)
# hint: key_averages|aggregat|sum|summed|all (its |of its )?calls|single (call|event)|events\(\)|per call
# Wrong: an operator called many times (each call short) can have the largest self time in
# total; the longest single call belongs to another operator.
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def answer(fn, args, device):
    on_gpu = torch.device(device).type == "cuda"
    fn(*args)
    d2lgpu.sync(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    longest = max(prof.events(), key=lambda e: getattr(e, column))
    return longest.key
