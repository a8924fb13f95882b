# expect: fail reads the name off the printed table, which truncates long names (over 55 characters) with "..."
# hint: table|truncat|width|cut|shorten|\.key|full name|whole name
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    sort_by = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    table = prof.key_averages().table(sort_by=sort_by, row_limit=1)
    # the layout: dashes, header, dashes, then the first (slowest) row
    first_row = table.splitlines()[3]
    return first_row[:first_row.index("  ", len(first_row) - len(first_row.lstrip()))].strip()


answer = slowest_op
