# expect: fail reseeds the global RNG with torch.manual_seed so both calls draw the same numbers, changing the caller's random stream
# hint: seed|random|rng|generator
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    torch.manual_seed(0)  # same random numbers in the warm-up and the profiled call
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    torch.manual_seed(0)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, attr)).key


answer = slowest_op
