# expect: fail sets torch.set_num_threads(1) for a steadier profile and never puts the thread count back
# hint: thread
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    torch.set_num_threads(1)  # one core: a steadier profile (chapter 6)
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
