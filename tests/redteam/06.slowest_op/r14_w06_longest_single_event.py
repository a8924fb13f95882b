# expect: fail takes the single longest event from prof.events() instead of the per-operator totals of key_averages()
# hint: events\(\)|single (call|event)|one call|longest (single )?(call|event)|summed|sum (of|over)|adds? up|all (of )?(its )?calls|aggregat|key_averages
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    events = list(prof.events())
    return max(events, key=lambda e: getattr(e, column)).key


answer = slowest_op
