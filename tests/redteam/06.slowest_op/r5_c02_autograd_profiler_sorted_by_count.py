# expect: pass torch.autograd.profiler.profile; key_averages sorted by count first, then max by self time
# hint:
import torch
import torch.autograd.profiler as legacy


def answer(fn, args, device):
    on_cuda = device.type == "cuda"
    fn(*args)
    if on_cuda:
        torch.cuda.synchronize(device)
    with legacy.profile(use_device="cuda" if on_cuda else None) as prof:
        fn(*args)
    rows = sorted(prof.key_averages(), key=lambda e: e.count, reverse=True)
    if on_cuda:
        best = max(rows, key=lambda e: e.self_device_time_total)
    else:
        best = max(rows, key=lambda e: e.self_cpu_time_total)
    return best.key
