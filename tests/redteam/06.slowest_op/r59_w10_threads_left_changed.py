# expect: fail sets torch.set_num_threads(1) for a steadier profile, as the chapter does, and never puts the thread count back
# hint: thread|num_threads|set_num_threads|process.wide|setting|put (it )?back|restore|changed
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    if not on_gpu:
        torch.set_num_threads(1)  # one core: times that other programs cannot disturb
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    field = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    best = max(prof.key_averages(), key=lambda e: getattr(e, field))
    return best.key


answer = slowest_op
