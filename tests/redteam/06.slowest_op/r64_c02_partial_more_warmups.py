# expect: pass
# hint:
# Right: functools.partial over a general helper, three warm-up calls (the prompt says more
# do no harm), torch.cuda.synchronize(device) directly, sorted(...) with attrgetter.
import functools
from operator import attrgetter

import torch
import torch.profiler


def _slowest(fn, args, device, *, warmups):
    device = torch.device(device)
    gpu = device.type == "cuda"
    for _ in range(warmups):
        fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    activities = [torch.profiler.ProfilerActivity.CPU]
    if gpu:
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    with torch.profiler.profile(activities=activities) as prof:
        fn(*args)
    by = attrgetter("self_device_time_total" if gpu else "self_cpu_time_total")
    return sorted(prof.key_averages(), key=by, reverse=True)[0].key


answer = functools.partial(_slowest, warmups=3)
