# expect: fail groups key_averages by input shape, so an operator's time is split across shapes
# hint: shape|group|split|aggregat|sum.*(entries|rows)|per operator
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    with profile(activities=acts, record_shapes=True) as prof:
        fn(*args)
    # one row per (operator, input shapes): finer detail
    rows = prof.key_averages(group_by_input_shape=True)
    col = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(rows, key=lambda e: getattr(e, col)).key
