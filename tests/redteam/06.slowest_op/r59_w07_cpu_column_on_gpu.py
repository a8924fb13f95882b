# expect: fail on a GPU ranks by self_cpu_time_total (launch time) instead of self_device_time_total
# hint: device|cuda|gpu|self_device|launch
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
    best = max(prof.key_averages(), key=lambda e: e.self_cpu_time_total)
    return best.key


answer = slowest_op
