# expect: pass
# hint:
# Right: prof.start()/prof.stop() instead of a with block (stopped in finally), and a plain
# loop for the maximum instead of max()/sorted().
import torch
from torch.profiler import ProfilerActivity, profile


def answer(fn, args, device):
    dev = torch.device(device)
    cuda = dev.type == "cuda"
    fn(*args)
    if cuda:
        torch.cuda.synchronize(dev)
    prof = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] if cuda else [ProfilerActivity.CPU])
    prof.start()
    try:
        fn(*args)
    finally:
        prof.stop()
    best_name, best_time = None, -1.0
    for entry in prof.key_averages():
        t = entry.self_device_time_total if cuda else entry.self_cpu_time_total
        if t > best_time:
            best_name, best_time = entry.key, t
    return best_name
