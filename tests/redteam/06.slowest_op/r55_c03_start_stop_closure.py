# expect: pass closure factory; prof.start()/prof.stop() in try/finally instead of a with block
# hint:
import torch
from torch.profiler import ProfilerActivity, profile


def make_slowest_op():
    columns = {"cuda": "self_device_time_total"}

    def slowest_op(fn, args, device):
        device = torch.device(device)
        cuda = device.type == "cuda"
        fn(*args)  # warm-up
        if cuda:
            torch.cuda.synchronize(device)
        prof = profile(
            activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] if cuda else [ProfilerActivity.CPU]
        )
        prof.start()
        try:
            fn(*args)
        finally:
            prof.stop()
        column = columns.get(device.type, "self_cpu_time_total")
        totals = {e.key: getattr(e, column) for e in prof.key_averages()}
        return max(totals, key=totals.get)

    return slowest_op


answer = make_slowest_op()
