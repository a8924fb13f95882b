# expect: pass key_averages(group_by_input_shape=True) without record_shapes=True: no shapes are recorded, so the rows are grouped by name alone
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    averages = prof.key_averages(group_by_input_shape=True)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(averages, key=lambda e: getattr(e, column)).key


answer = slowest_op
