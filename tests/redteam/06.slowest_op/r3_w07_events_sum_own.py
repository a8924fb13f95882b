# expect: fail picks the single longest call from prof.events()
# hint: prof\.events\(\)
import torch
from torch.profiler import profile, ProfilerActivity
def answer(fn, args, device):
    fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize()
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    with profile(activities=acts) as prof:
        fn(*args)
    attr = "self_device_time_total" if device.type == "cuda" else "self_cpu_time_total"
    return max(prof.events(), key=lambda e: getattr(e, attr)).name
