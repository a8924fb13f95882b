# expect: pass prof.events() self times summed per name with a Counter, d2lgpu.sync after the warm-up
# hint:
import collections
import torch
import d2lgpu
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    gpu = torch.device(device).type == "cuda"
    fn(*args)
    d2lgpu.sync(device)
    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    with profile(activities=acts) as prof:
        fn(*args)
    attr = "self_device_time_total" if gpu else "self_cpu_time_total"
    per_name = collections.Counter()
    for ev in prof.events():
        per_name[ev.key] += getattr(ev, attr)
    return per_name.most_common(1)[0][0]
