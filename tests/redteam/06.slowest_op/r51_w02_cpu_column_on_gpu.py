# expect: fail reads self_cpu_time_total on a GPU too (launch time), not self_device_time_total
# hint: self_device_time_total|device time|device column|device's|gpu time|cuda time|launch
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
    # "self time" read from the CPU column whatever the device: on a GPU it measures launches
    return max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key


answer = slowest_op
