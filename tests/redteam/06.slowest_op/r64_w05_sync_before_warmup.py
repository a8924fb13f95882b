# expect: fail synchronizes before the warm-up instead of after it: the warm-up's kernels still run when the profile starts
# hint: sync
# Wrong: the prompt says to synchronize AFTER the warm-up; syncing before it leaves the
# warm-up's queued GPU work running into the profiled region.
import torch
from torch.profiler import ProfilerActivity, profile


def answer(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    if on_gpu:
        torch.cuda.synchronize(device)  # start clean...
    fn(*args)  # ...then warm up
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
