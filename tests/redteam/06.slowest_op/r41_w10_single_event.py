# expect: fail ranks the individual events of prof.events() (the single longest call) instead of the per-operator sums of key_averages()
# hint: (key_averages|average|summed|sum|all (its |the )?calls|calls)
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.events(), key=lambda e: getattr(e, column)).name
