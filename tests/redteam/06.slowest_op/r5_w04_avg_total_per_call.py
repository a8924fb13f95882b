# expect: fail ranks by cpu_time, the average TOTAL time per call (includes children, divided by count)
# hint: total|per call|average|self
import torch
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts) as prof:
        fn(*args)
    col = "device_time" if gpu else "cpu_time"
    return max(prof.key_averages(), key=lambda e: getattr(e, col)).key
