# expect: fail ranks by average self time per call (self time / count), not the total self time
# hint: per.call|average|mean|divid|count|calls|self.*total
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
    # the slowest operator: the one whose calls take longest
    best = max(prof.key_averages(), key=lambda e: getattr(e, field) / max(e.count, 1))
    return best.key


answer = slowest_op
