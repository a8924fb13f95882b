# expect: fail ranks entries by total (inclusive) time instead of self time
# hint: self|total|inclusive|matmul|children|calls? (it|other)
# Wrong: the prompt asks for the largest SELF time; total time picks a caller such as
# aten::matmul or aten::linear (or an autograd wrapper) over the operator doing the work.
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def answer(fn, args, device):
    on_gpu = torch.device(device).type == "cuda"
    fn(*args)
    d2lgpu.sync(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "device_time_total" if on_gpu else "cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key
