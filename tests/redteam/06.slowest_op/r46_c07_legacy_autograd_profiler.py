# expect: pass the legacy torch.autograd.profiler.profile (judged right: torch.profiler.profile is built on it, and its key_averages() holds the same entries and columns, device time included with use_device="cuda")
# hint: 
import torch
import torch.autograd.profiler as legacy_profiler


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    with legacy_profiler.profile(use_device="cuda" if on_gpu else None) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
