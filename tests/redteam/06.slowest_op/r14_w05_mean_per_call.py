# expect: fail ranks by average self time per call (self total / count) instead of the total self time
# hint: per.call|average|\bmean\b|divid|normali[sz]
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
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"

    def per_call(e):  # "time, not the number of calls": normalise the calls away
        return getattr(e, column) / max(e.count, 1)

    return max(prof.key_averages(), key=per_call).key


answer = slowest_op
