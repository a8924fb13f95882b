# expect: pass sorted() with operator.attrgetter, descending, first row's key
# hint:
import operator

import torch
import torch.profiler


def slowest_op(fn, args, device):
    dev = device if isinstance(device, torch.device) else torch.device(device)
    gpu = dev.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(dev)
    acts = [torch.profiler.ProfilerActivity.CPU]
    if gpu:
        acts.append(torch.profiler.ProfilerActivity.CUDA)
    with torch.profiler.profile(activities=acts) as prof:
        fn(*args)
    by_self = operator.attrgetter("self_device_time_total" if gpu else "self_cpu_time_total")
    rows = sorted(prof.key_averages(), key=by_self, reverse=True)
    return rows[0].key


answer = slowest_op
