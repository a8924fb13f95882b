# expect: fail keeps only rows with device time > 0 before ranking; on the CPU no row is left
# hint: self_cpu|filter|zero|empty|no (rows|operators)|device time
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU]
    if device.type == "cuda":
        activities.append(ProfilerActivity.CUDA)
    with profile(activities=activities) as prof:
        fn(*args)
    # drop the bookkeeping rows that did no real work
    rows = [e for e in prof.key_averages() if e.self_device_time_total > 0]
    column = "self_device_time_total" if device.type == "cuda" else "self_cpu_time_total"
    return max(rows, key=lambda e: getattr(e, column)).key


answer = slowest_op
