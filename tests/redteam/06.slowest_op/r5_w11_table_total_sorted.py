# expect: fail parses the table sorted by "cpu_time_total" (total time, the column the chapter says finds expensive calls) and returns its top name
# hint: total|self
import torch
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts) as prof:
        fn(*args)
    sort = "device_time_total" if gpu else "cpu_time_total"
    table = prof.key_averages().table(sort_by=sort, row_limit=1)
    lines = [l for l in table.splitlines() if l.strip() and not set(l.strip()) <= {"-", " "}]
    return lines[1].strip().split("  ")[0]  # lines[0] is the column header
