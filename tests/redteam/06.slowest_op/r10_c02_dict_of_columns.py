# expect: pass looks up the self-time column in a dict keyed by device.type
# hint: -
import torch
from torch.profiler import ProfilerActivity, profile

SELF_TIME = {
    "cpu": lambda e: e.self_cpu_time_total,
    "cuda": lambda e: e.self_device_time_total,
}
ACTIVITIES = {
    "cpu": [ProfilerActivity.CPU],
    "cuda": [ProfilerActivity.CPU, ProfilerActivity.CUDA],
}


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    kind = torch.device(device).type
    fn(*args)
    if kind == "cuda":
        torch.cuda.synchronize(device)
    with profile(activities=ACTIVITIES[kind]) as prof:
        fn(*args)
    ranked = sorted(prof.key_averages(), key=SELF_TIME[kind], reverse=True)
    return ranked[0].key


answer = slowest_op
