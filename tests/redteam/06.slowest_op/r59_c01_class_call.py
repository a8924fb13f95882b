# expect: pass a callable class instance; synchronizes with d2lgpu.sync and sorts key_averages by the self-time column
# hint:
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


class SlowestOp:
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""

    def __call__(self, fn, args, device):
        device = torch.device(device)
        gpu = device.type == "cuda"
        fn(*args)  # warm-up
        d2lgpu.sync(device)  # a no-op on the CPU
        activities = [ProfilerActivity.CPU]
        if gpu:
            activities.append(ProfilerActivity.CUDA)
        with profile(activities=activities) as prof:
            fn(*args)
        column = "self_device_time_total" if gpu else "self_cpu_time_total"
        rows = sorted(prof.key_averages(), key=lambda row: getattr(row, column), reverse=True)
        return rows[0].key


answer = SlowestOp()
