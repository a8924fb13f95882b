# expect: fail the warm-up call runs inside the profile, so the profile holds the cold first call too
# hint: warm.?up|first call|cold|inside|(two|2|both) calls|more than one call|one call
# Wrong: the prompt says warm up, then profile ONE more call; here both calls are recorded
# and the first call's one-time costs are summed into key_averages().
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def answer(fn, args, device):
    on_gpu = torch.device(device).type == "cuda"
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)  # warm-up
        d2lgpu.sync(device)
        fn(*args)  # the call we want
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
