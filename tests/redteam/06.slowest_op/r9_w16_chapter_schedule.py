# expect: fail copies the chapter's schedule (wait=1, warmup=1, active=2): calls fn 4 times and profiles 2 calls instead of 1
# hint: one call|once|calls|warm.?up|schedule
import torch
from torch.profiler import ProfilerActivity, profile, schedule


def answer(fn, args, device):
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    with profile(activities=acts, schedule=schedule(wait=1, warmup=1, active=2)) as prof:
        for _ in range(4):
            fn(*args)
            prof.step()
    sort_by = "self_device_time_total" if device.type == "cuda" else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, sort_by)).key
