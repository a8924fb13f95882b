# expect: fail sorts by cpu_time_total (total, not self)
# hint: total\* time|sort by self time
import torch
from torch.profiler import profile, ProfilerActivity
def answer(fn, args, device):
    fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
    with profile(activities=acts) as prof:
        fn(*args)
    rows = sorted(prof.key_averages(), key=lambda e: e.cpu_time_total, reverse=True)
    return rows[0].key
