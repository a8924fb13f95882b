# expect: pass groups key_averages by input shape too and keeps the largest self-time entry, device given as a string or torch.device
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


def slowest_op(fn, args, device):
    kind = torch.device(device).type
    fn(*args)
    d2lgpu.sync(device)
    acts = {"cuda": [ProfilerActivity.CPU, ProfilerActivity.CUDA]}.get(kind, [ProfilerActivity.CPU])
    with profile(activities=acts, record_shapes=True) as prof:
        fn(*args)
    column = "self_device_time_total" if kind == "cuda" else "self_cpu_time_total"
    entries = prof.key_averages(group_by_input_shape=True)
    totals = {}
    for e in entries:
        totals[e.key] = totals.get(e.key, 0) + getattr(e, column)
    return max(totals.items(), key=lambda kv: kv[1])[0]


answer = slowest_op
