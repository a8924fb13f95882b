# expect: fail sorts by self time ascending (no reverse) and takes the first entry, i.e. the smallest
# hint: smallest|least|\bmin|fastest|shortest|lowest|ascending|reverse
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    averages = prof.key_averages()
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    ranked = sorted(averages, key=lambda e: getattr(e, column))
    return ranked[0].key


answer = slowest_op
