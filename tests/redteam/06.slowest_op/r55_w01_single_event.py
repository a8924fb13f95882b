# expect: fail picks the single slowest event from prof.events(), not the per-operator sum of key_averages()
# hint: key_averages|aggregat|summed|added up|sum over|all (of )?its calls|every call|number of calls|per.call
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    # every recorded operator call, one by one: the slowest single call
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    slowest = max(prof.events(), key=lambda event: getattr(event, attr))
    return slowest.key


answer = slowest_op
