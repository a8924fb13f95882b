# expect: fail calls fn a third time after the profile (to "check" it still runs): fn must run twice, warm-up + profiled
# hint: (number of|\d+|too many|extra) calls?|called \d|calls? (of|to) fn|fn.*called|after the profil|twice
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
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    name = max(prof.key_averages(), key=lambda e: getattr(e, column)).key
    fn(*args)  # leave things "warm" for the caller's next step
    return name


answer = slowest_op
