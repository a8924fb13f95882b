# expect: fail key_averages(group_by_input_shape=True): an operator run on several shapes is split into rows, so another operator can win
# hint: shape|group
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities, record_shapes=True) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    rows = prof.key_averages(group_by_input_shape=True)  # more detail per row
    return max(rows, key=lambda e: getattr(e, column)).key


answer = slowest_op
