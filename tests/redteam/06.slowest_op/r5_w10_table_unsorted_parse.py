# expect: fail parses the printed table without sort_by (rows in order of first appearance) and takes the first operator row
# hint: sort|table|self time|first
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
    table = prof.key_averages().table(row_limit=10)
    lines = table.splitlines()
    # header, dashes, column names, dashes, then rows
    dashes = [i for i, l in enumerate(lines) if set(l.strip()) <= {"-", " "} and l.strip()]
    first_row = lines[dashes[1] + 1]
    return first_row.strip().split("  ")[0]
