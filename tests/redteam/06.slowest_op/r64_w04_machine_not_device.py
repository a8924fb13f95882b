# expect: fail decides CPU/GPU from torch.cuda.is_available(), not from the device argument
# hint: device.?(type|argument|passed|given)|is_available|cpu device|self_cpu|gpu machine
# Wrong: on a machine with a GPU, a call with device=cpu profiles CUDA activity and ranks CPU
# work by self_device_time_total (all zero), returning an arbitrary entry.
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu

ON_GPU = torch.cuda.is_available()


def answer(fn, args, device):
    fn(*args)
    d2lgpu.sync(device)
    activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if ON_GPU else [ProfilerActivity.CPU]
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if ON_GPU else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
