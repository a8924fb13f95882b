# expect: fail sorts by self time but skips the top row (thinking it is the profiler's own wrapper), returning the second slowest
# hint: second|top|first entry|largest|slowest
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
    rows = sorted(prof.key_averages(), key=lambda e: getattr(e, attr), reverse=True)
    return rows[1].key  # rows[0] is the profiler's bookkeeping
