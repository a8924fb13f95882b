# expect: fail ranks by the printed string self_*_time_total_str (e.g. '987.000us' > '12.345ms'), not the number
# hint: str|text|unit|numer|number|lexic|alphabet|float
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
    column += "_str"  # the table's text, e.g. '1.234ms'
    return max(averages, key=lambda e: getattr(e, column)).key


answer = slowest_op
