# expect: pass functools.partial over a general profiling function; prof.stop() called explicitly
# hint: 
import functools

import torch
from torch.profiler import ProfilerActivity, profile


def _slowest(fn, args, device, *, warmups=1, cpu_column="self_cpu_time_total",
             gpu_column="self_device_time_total"):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    for _ in range(warmups):
        fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    prof = profile(
        activities=[ProfilerActivity.CPU, *([ProfilerActivity.CUDA] if on_gpu else [])]
    )
    prof.start()
    try:
        fn(*args)
    finally:
        prof.stop()
    column = gpu_column if on_gpu else cpu_column
    times = {e.key: getattr(e, column) for e in prof.key_averages()}
    return max(times, key=times.get)


slowest_op = functools.partial(_slowest, warmups=1)
answer = slowest_op
