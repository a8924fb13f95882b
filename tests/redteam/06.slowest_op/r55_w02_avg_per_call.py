# expect: fail ranks operators by self time per call (average), not by their total self time
# hint: per.call|averag|avg|count|number of calls|summed|all (of )?its calls|every call
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
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    # "time, not the number of calls": so divide the calls out
    return max(prof.key_averages(), key=lambda e: getattr(e, attr) / max(e.count, 1)).key


answer = slowest_op
