# expect: fail synchronizes only inside the profiled region, so the profile starts while the warm-up's GPU work still runs
# hint: sync|synchron
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        if on_gpu:
            torch.cuda.synchronize(device)  # too late: the profile has started
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
