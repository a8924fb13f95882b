# expect: pass numpy argmax over the self-time column, device type compared via str(device).startswith("cuda")
# hint: 
# name: slowest_op
import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    gpu = str(device).startswith("cuda")
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    with profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    ) as prof:
        fn(*args)
    rows = list(prof.key_averages())
    column = np.array(
        [r.self_device_time_total if gpu else r.self_cpu_time_total for r in rows], dtype=np.float64
    )
    return rows[int(np.argmax(column))].key
