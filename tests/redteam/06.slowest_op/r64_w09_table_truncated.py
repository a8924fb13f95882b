# expect: fail reads the name from the printed table, which truncates names longer than its column
# hint: truncat|long(er)? name|full name|\.key|table|cut|\.\.\.
# Wrong: the prompt asks for the entry's .key; table() cuts names over 55 characters to
# "...", so long operator or kernel names come back mangled. Right for short names only.
import re

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
    sort_by = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    table = prof.key_averages().table(sort_by=sort_by, row_limit=1)
    first_row = table.splitlines()[3]  # separator, header, separator, then the rows
    return re.split(r"\s{2,}", first_row.strip())[0]
