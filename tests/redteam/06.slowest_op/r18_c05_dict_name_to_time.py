# expect: pass builds a {name: self time} dict and returns max(d, key=d.get)
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
    averages = prof.key_averages()
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    times = {e.key: getattr(e, column) for e in averages}
    return max(times, key=times.get)


answer = slowest_op
