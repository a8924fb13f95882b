# expect: fail copies the chapter's schedule(wait=1, warmup=1, active=2): calls fn four times and keeps two profiled calls, not one warm-up plus one profiled call
# hint: once|one call|calls|several|schedule|twice|times|synchron
import torch
from torch.profiler import profile, ProfilerActivity, schedule


def answer(fn, args, device):
    gpu = device.type == "cuda"
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts, schedule=schedule(wait=1, warmup=1, active=2)) as prof:
        for _ in range(4):
            fn(*args)
            prof.step()
    attr = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, attr)).key
