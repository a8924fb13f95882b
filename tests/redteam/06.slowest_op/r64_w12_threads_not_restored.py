# expect: fail sets torch.set_num_threads(1) for a steadier profile and never puts the thread count back
# hint: thread|set_num_threads|restore|put back|process.?wide|setting|changed
# Wrong: the exercises say to put back any process-wide setting you change (the thread count
# first among them); the name returned is right.
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def answer(fn, args, device):
    on_gpu = torch.device(device).type == "cuda"
    if not on_gpu:
        torch.set_num_threads(1)  # as in the chapter: one core, never waiting for another thread
    fn(*args)
    d2lgpu.sync(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
