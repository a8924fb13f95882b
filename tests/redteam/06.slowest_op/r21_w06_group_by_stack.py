# expect: fail records with_stack=True and reads key_averages(group_by_stack_n=5): one operator called from several places is split into several rows, so an operator with more self time in all can lose to one called from a single place
# hint: stack|group|split|several rows|per call site|aggregat|by name
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities, with_stack=True) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    rows = prof.key_averages(group_by_stack_n=5)  # tells where each op was called from
    return max(rows, key=lambda e: getattr(e, column)).key


answer = slowest_op
