# expect: fail picks the single longest raw event from prof.events() instead of the key_averages() entry with the largest self time
# hint: key_averages|single|one call|averag|events\(\)|sum|total
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
    if on_gpu:
        longest = max(prof.events(), key=lambda e: e.self_device_time_total)
    else:
        longest = max(prof.events(), key=lambda e: e.self_cpu_time_total)
    return longest.key


answer = slowest_op
