# expect: fail calls fn on clones of the arguments (to spare the caller's tensors), not on args themselves
# hint: arg|clone|copy|fn\(\*args\)
import torch
from torch.profiler import ProfilerActivity, profile


def _fresh(args):
    return tuple(a.detach().clone() if isinstance(a, torch.Tensor) else a for a in args)


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*_fresh(args))
    if on_gpu:
        torch.cuda.synchronize(device)
    profiled_args = _fresh(args)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*profiled_args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
