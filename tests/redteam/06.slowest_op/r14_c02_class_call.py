# expect: pass a class with __call__, columns looked up from a dict by device type
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile


class SlowestOp:
    columns = {"cpu": "self_cpu_time_total", "cuda": "self_device_time_total"}

    def __call__(self, fn, args, device):
        device = torch.device(device)
        fn(*args)
        activities = [ProfilerActivity.CPU]
        if device.type == "cuda":
            torch.cuda.synchronize(device)
            activities.append(ProfilerActivity.CUDA)
        with profile(activities=activities) as prof:
            fn(*args)
        column = self.columns.get(device.type, "self_cpu_time_total")
        best_name, best_time = None, float("-inf")
        for entry in prof.key_averages():
            t = getattr(entry, column)
            if t > best_time:
                best_name, best_time = entry.key, t
        return str(best_name)


slowest_op = SlowestOp()
answer = slowest_op
