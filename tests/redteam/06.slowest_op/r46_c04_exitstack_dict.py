# expect: pass contextlib.ExitStack around the profiler, a dict of name -> self time, extra harmless bookkeeping
# hint:
import contextlib

import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    kind = device.type
    warm = fn(*args)  # the warm-up; its result is not needed
    del warm
    if kind == "cuda":
        torch.cuda.synchronize(device=device)
    activities = {ProfilerActivity.CPU}
    if kind == "cuda":
        activities.add(ProfilerActivity.CUDA)
    with contextlib.ExitStack() as stack:
        prof = stack.enter_context(profile(activities=list(activities)))
        fn(*args)
    averages = prof.key_averages()
    if kind == "cuda":
        self_time = {row.key: row.self_device_time_total for row in averages}
    else:
        self_time = {row.key: row.self_cpu_time_total for row in averages}
    return max(self_time, key=self_time.__getitem__)


answer = slowest_op
