# expect: fail reads self_device_time_total on the CPU too (all zeros there), so it returns an arbitrary first row
# hint: self_cpu|cpu time|cpu column|device_time.*cpu|on the cpu
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
    # "self device time" = self time on whatever the device is
    return max(prof.key_averages(), key=lambda e: e.self_device_time_total).key


answer = slowest_op
