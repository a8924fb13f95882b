# expect: fail reseeds the global RNG (torch.manual_seed) to make the two calls alike, and leaves it changed for the caller
# hint: seed|rng|random|generator|fork_rng
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
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
