# expect: fail copies the chapter's schedule (wait=1, warmup=1, active=2): profiles two calls of fn instead of one
# hint: one (more )?call|two calls|calls of fn|profil\w* (once|one)|active|schedule|number of calls|times
import torch
from torch.profiler import ProfilerActivity, profile, schedule


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    fn(*args)  # warm-up
    if on_gpu:
        torch.cuda.synchronize(device)
    with profile(activities=activities, schedule=schedule(wait=1, warmup=1, active=2)) as prof:
        for _ in range(4):
            fn(*args)
            prof.step()
    field = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    best = max(prof.key_averages(), key=lambda e: getattr(e, field))
    return best.key


answer = slowest_op
