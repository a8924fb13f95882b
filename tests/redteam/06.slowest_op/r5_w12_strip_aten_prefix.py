# expect: fail right operator, but returns its name without the "aten::" namespace (e.g. "mm" instead of "aten::mm"), not .key
# hint: key|name|aten::|namespace|prefix
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
    attr = "self_device_time_total" if gpu else "self_cpu_time_total"
    best = max(prof.key_averages(), key=lambda e: getattr(e, attr))
    return best.key.split("::")[-1]
