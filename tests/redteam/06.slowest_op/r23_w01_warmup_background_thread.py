# expect: fail the warm-up runs in a background thread that is never joined, so it overlaps the profiled call (not finished, competing for the cores) instead of completing before it; the sync after it waits for nothing
# hint: thread|join|background|concurren|overlap|before the profil|finish
import threading

import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    # warm up in the background so we don't pay for it twice; the profiler only
    # records the thread that started it, so the warm-up stays out of the table
    warm = threading.Thread(target=fn, args=tuple(args), daemon=True)
    warm.start()
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
