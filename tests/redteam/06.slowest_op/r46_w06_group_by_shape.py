# expect: fail key_averages(group_by_input_shape=True) splits an operator's time over its input shapes, so a split operator loses
# hint: shape|group|split|key_averages\(\)
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
    rows = prof.key_averages(group_by_input_shape=True)  # "more detail"
    return max(rows, key=lambda e: getattr(e, column)).key


answer = slowest_op
