# expect: fail wraps the profiled call in record_function, whose own label (Python time between ops) can come out as the slowest entry
# hint: record_function|label|annotat|your own|own name|range|not an operator
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
        with record_function("profiled_call"):  # as the chapter does with train_step
            fn(*args)
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, attr)).key


answer = slowest_op
