# expect: fail key_averages(group_by_input_shape=True) splits an operator's self time over its input shapes
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
    # shapes make the table more useful when reading it
    with profile(activities=activities, record_shapes=True) as prof:
        fn(*args)
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    rows = prof.key_averages(group_by_input_shape=True)
    return max(rows, key=lambda e: getattr(e, attr)).key


answer = slowest_op
