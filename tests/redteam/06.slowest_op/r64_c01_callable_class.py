# expect: pass
# hint:
# Right: a callable class instance; warm-up, sync(device), one profiled call, and the
# key_averages() entry with the largest self time of the right column.
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


class SlowestOp:
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""

    def __call__(self, fn, args, device):
        device = torch.device(device)
        on_gpu = device.type == "cuda"
        fn(*args)  # warm-up
        d2lgpu.sync(device)  # the warm-up's GPU work is done before the profile starts
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
        with profile(activities=activities) as prof:
            fn(*args)
        column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
        best = max(prof.key_averages(), key=lambda entry: getattr(entry, column))
        return best.key


answer = SlowestOp()
