# expect: fail clones the arguments inside the profiled region (so fn cannot alter them): the clones' aten::clone/aten::copy_ rows are profiled too and can be the slowest
# hint: clone|copy|copies|inside the profile|profiled region|extra work|own work
import torch
from torch.profiler import ProfilerActivity, profile


def _fresh(a):
    return a.clone() if isinstance(a, torch.Tensor) else a


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*[_fresh(a) for a in args])  # warm-up on copies
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*[_fresh(a) for a in args])
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
