# expect: pass min() with a negated self-time key (the largest self time), torch.cuda.device context for the sync, accepts str or torch.device
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    if device.type == "cuda":
        fn(*args)
        with torch.cuda.device(device):
            torch.cuda.synchronize()  # the device made current just above
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            fn(*args)
        return min(prof.key_averages(), key=lambda e: -e.self_device_time_total).key
    fn(*args)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        fn(*args)
    return min(prof.key_averages(), key=lambda e: -e.self_cpu_time_total).key


answer = slowest_op
