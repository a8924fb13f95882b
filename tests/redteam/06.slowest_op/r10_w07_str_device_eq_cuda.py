# expect: fail tests str(device) == "cuda", which misses "cuda:0": on such a GPU it ranks by CPU (launch) time without CUDA activity
# hint: device\.type|cuda:0|str\(device\)|index|launch
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    gpu = str(device) == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    with profile(activities=activities) as prof:
        fn(*args)
    if gpu:
        key = lambda e: e.self_device_time_total  # noqa: E731
    else:
        key = lambda e: e.self_cpu_time_total  # noqa: E731
    return max(prof.key_averages(), key=key).key


answer = slowest_op
