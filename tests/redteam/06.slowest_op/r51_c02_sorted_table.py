# expect: pass sorted() with reverse=True over a list, a helper class holding the activities, two warm-up calls
# hint:
import torch
import torch.profiler


class _Profiled:
    """Activities and the column to read, chosen once per call from the device."""

    def __init__(self, device):
        self.device = torch.device(device)
        self.on_gpu = self.device.type == "cuda"
        self.activities = [torch.profiler.ProfilerActivity.CPU]
        if self.on_gpu:
            self.activities.append(torch.profiler.ProfilerActivity.CUDA)
        self.column = "self_device_time_total" if self.on_gpu else "self_cpu_time_total"

    def settle(self):
        if self.on_gpu:
            torch.cuda.synchronize(self.device)


def slowest_op(fn, args, device):
    p = _Profiled(device)
    for _ in range(2):  # two warm-up calls: more do no harm
        fn(*args)
    p.settle()
    with torch.profiler.profile(activities=p.activities) as prof:
        fn(*args)
    rows = sorted(prof.key_averages(), key=lambda e: getattr(e, p.column), reverse=True)
    return str(rows[0].key)


answer = slowest_op
