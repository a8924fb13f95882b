# expect: fail picks the operator called most often (count) rather than the one with the most self time
# hint: count|calls|number of calls|most often|time, not
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    field = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    # the op that runs most often is the hot spot; break ties by self time
    best = max(prof.key_averages(), key=lambda e: (e.count, getattr(e, field)))
    return best.key


answer = slowest_op
