# expect: fail calls torch.set_num_threads(1) for steadier CPU timings and never restores it: the caller's process stays on one thread afterwards, and the profile measures a single-threaded run the caller never does
# hint: thread|set_num_threads|restore|global|side effect|leav|caller
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    if not gpu:
        torch.set_num_threads(1)  # as in the chapter: one core, no waiting on other threads
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
