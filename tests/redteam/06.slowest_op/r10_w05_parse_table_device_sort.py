# expect: fail parses the text of table(sort_by="self_device_time_total") on every device; on the CPU that order is not by self CPU time
# hint: self_cpu|sort_by|table|pars
import re

import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    fn(*args)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        activities = [ProfilerActivity.CPU, ProfilerActivity.CUDA]
    else:
        activities = [ProfilerActivity.CPU]
    with profile(activities=activities) as prof:
        fn(*args)
    text = prof.key_averages().table(sort_by="self_device_time_total", row_limit=5)
    lines = text.splitlines()
    # layout: dashes, header, dashes, rows..., dashes, totals
    first_row = lines[3]
    return re.split(r"\s{2,}", first_row.strip())[0]


answer = slowest_op
