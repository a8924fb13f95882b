# expect: fail sorts by self time ascending and takes the first entry: the fastest operator, not the slowest
# hint: largest|slowest|smallest|fastest|max|sort
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    d2lgpu.sync(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return sorted(prof.key_averages(), key=lambda e: getattr(e, attr))[0].key


answer = slowest_op
