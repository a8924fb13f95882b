# expect: fail picks the single longest event from prof.events() instead of the operator with the largest summed self time in key_averages()
# hint: key_averages|aggregat|summ?ed|sum|all (its )?calls|per.call|single (call|event)
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
    field = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    best = max(prof.events(), key=lambda e: getattr(e, field))
    return best.key


answer = slowest_op
