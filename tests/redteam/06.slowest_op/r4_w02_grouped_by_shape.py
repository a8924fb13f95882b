# expect: fail key_averages(group_by_input_shape=True): an operator's time is split over its input shapes, so the largest single-shape row wins instead of the operator's total
# hint: shape|group|total|self
import torch
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts, record_shapes=True) as prof:
        fn(*args)
    attr = "self_device_time_total" if gpu else "self_cpu_time_total"
    rows = prof.key_averages(group_by_input_shape=True)
    return max(rows, key=lambda e: getattr(e, attr)).key
