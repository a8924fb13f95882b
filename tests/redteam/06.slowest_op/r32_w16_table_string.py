# expect: fail returns the first line of the key_averages table (a string of column values), not the operator name
# hint: key|name
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    d2lgpu.sync(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    sort_by = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    table = prof.key_averages().table(sort_by=sort_by, row_limit=1)
    return table.splitlines()[3].strip()


answer = slowest_op
