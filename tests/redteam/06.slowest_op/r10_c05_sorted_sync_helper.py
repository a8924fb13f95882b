# expect: pass sorts key_averages by the per-device self time with a small sync helper
# hint: -
import torch
from torch.profiler import ProfilerActivity, profile


def _sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    fn(*args)
    _sync(device)
    gpu = device.type == "cuda"
    with profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    ) as prof:
        fn(*args)

    def self_time(event):
        return event.self_device_time_total if gpu else event.self_cpu_time_total

    events = list(prof.key_averages())
    events.sort(key=self_time, reverse=True)
    return events[0].key


answer = slowest_op
