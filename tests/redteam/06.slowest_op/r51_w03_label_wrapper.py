# expect: fail wraps the profiled call in record_function: the label's own entry (Python time between ops) can win and its name is returned
# hint: record_function|label|not an operator|operator's name|own (name|range|entry)|your own
import torch
from torch.profiler import ProfilerActivity, profile, record_function


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        with record_function("profiled_call"):  # to find the call in a trace, as in 6.1
            fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
