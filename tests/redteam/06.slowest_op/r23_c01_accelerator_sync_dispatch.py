# expect: pass device-agnostic torch.accelerator.synchronize after the warm-up; activities and column from a dict keyed by device type
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile

_PLAN = {
    "cpu": ((ProfilerActivity.CPU,), "self_cpu_time_total"),
    "cuda": ((ProfilerActivity.CPU, ProfilerActivity.CUDA), "self_device_time_total"),
}


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    activities, column = _PLAN[device.type]
    fn(*args)  # warm-up
    if device.type != "cpu":
        torch.accelerator.synchronize(device)  # the whole device, every stream
    with profile(activities=list(activities)) as prof:
        fn(*args)
    return max(prof.key_averages(), key=lambda row: getattr(row, column)).key


answer = slowest_op
