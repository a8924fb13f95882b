# expect: fail reads self_cpu_time_total on a GPU too (launch time, not device time)
# hint: self_device_time|device time|cuda time|gpu time|launch
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
    return max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key


answer = slowest_op
