# expect: fail ranks by self time per call
# hint: per call
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
    return max(prof.key_averages(), key=lambda e: getattr(e, attr) / max(e.count, 1)).key
