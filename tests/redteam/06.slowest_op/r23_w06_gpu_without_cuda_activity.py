# expect: fail on a GPU profiles only ProfilerActivity.CPU but sorts by self_device_time_total: without CUDA activity every device time is 0, so max returns whatever entry comes first
# hint: ProfilerActivity\.CUDA|cuda activit|activit|kernel|device time.*(0|zero)|zero|not recorded
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    fn(*args)  # warm-up
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    # the CPU activity records every aten operator, on whatever device it runs
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        fn(*args)
    column = "self_device_time_total" if device.type == "cuda" else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
