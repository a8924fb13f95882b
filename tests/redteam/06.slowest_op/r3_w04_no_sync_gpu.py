# expect: fail on a GPU no synchronize after the warm-up
# hint: synchronize after
import torch
from torch.profiler import profile, ProfilerActivity
def answer(fn, args, device):
    fn(*args)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    with profile(activities=acts) as prof:
        fn(*args)
    key = "self_device_time_total" if device.type == "cuda" else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, key)).key
