# expect: fail sums prof.events() by name, but sums cpu_time_total (total, children included) rather than self time
# hint: total|self
import collections
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
    attr = "device_time_total" if gpu else "cpu_time_total"
    totals = collections.Counter()
    for ev in prof.events():
        totals[ev.name] += getattr(ev, attr)
    return totals.most_common(1)[0][0]
