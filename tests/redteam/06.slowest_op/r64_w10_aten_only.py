# expect: fail keeps only entries whose name starts with "aten::", dropping other entries (labels, kernels, optimizer steps)
# hint: aten|filter|prefix|every entry|any entry|all entries|record_function|label|kernel|user
# Wrong: the prompt asks for the entry of key_averages() with the largest self time, any
# entry; a record_function range or a kernel row with the largest self time is skipped.
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
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    ops = [e for e in prof.key_averages() if e.key.startswith("aten::")]
    return max(ops, key=lambda e: getattr(e, column)).key
