# expect: fail sorts by total time (cpu_time_total / device_time_total) instead of self time
# hint: (?<!self_)(cpu|device)_time_total|total time|inclusive|child|callee|aten::matmul|calls? (to )?(other|inner)|not (the )?self
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
    column = "device_time_total" if on_gpu else "cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
