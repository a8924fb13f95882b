# expect: pass functools.reduce keeping the larger row, column chosen by a getter; torch.cuda.synchronize(device) after the warm-up
# hint: 
import functools
import operator

import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    on_gpu = torch.device(device).type == "cuda"
    self_time = operator.attrgetter(
        "self_device_time_total" if on_gpu else "self_cpu_time_total"
    )
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = {ProfilerActivity.CPU, ProfilerActivity.CUDA} if on_gpu else {ProfilerActivity.CPU}
    with profile(activities=list(activities)) as prof:
        fn(*args)
    best = functools.reduce(
        lambda a, b: b if self_time(b) > self_time(a) else a, prof.key_averages()
    )
    return best.key


answer = slowest_op
