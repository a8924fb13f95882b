# expect: fail wraps the profiled call in record_function("slowest_op_call"): the label becomes a row of key_averages whose self CPU time (Python between the ops) can be the largest, and it is returned instead of an operator
# hint: record_function|label|user|range|annotation|not an operator|own row
import torch
from torch.profiler import ProfilerActivity, profile, record_function


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        with record_function("slowest_op_call"):  # easy to find in a trace
            fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
