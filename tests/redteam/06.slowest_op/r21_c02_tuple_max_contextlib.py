# expect: pass max over (self time, name) tuples; the profiler entered through contextlib.ExitStack; warm-up then device sync
# hint: 
import contextlib

import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    cuda = device.type == "cuda"
    fn(*args)
    if cuda:
        torch.cuda.synchronize(device)
    with contextlib.ExitStack() as stack:
        activities = [ProfilerActivity.CPU]
        if cuda:
            activities.append(ProfilerActivity.CUDA)
        prof = stack.enter_context(profile(activities=activities))
        fn(*args)
    rows = prof.key_averages()
    if cuda:
        pairs = [(r.self_device_time_total, r.key) for r in rows]
    else:
        pairs = [(r.self_cpu_time_total, r.key) for r in rows]
    return max(pairs)[1]


answer = slowest_op
