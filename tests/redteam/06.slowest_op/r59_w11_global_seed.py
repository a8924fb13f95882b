# expect: fail reseeds the global RNG with torch.manual_seed(0) so both calls see the same random numbers, changing the caller's random state
# hint: seed|random|rng|generator|fork_rng|manual_seed
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    torch.manual_seed(0)  # warm-up and profiled call draw the same numbers
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    torch.manual_seed(0)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    field = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    best = max(prof.key_averages(), key=lambda e: getattr(e, field))
    return best.key


answer = slowest_op
