# expect: pass parses the printed table, sorted by the right self-time column, one row, wide name column
# hint:
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
    sort = "self_cuda_time_total" if gpu else "self_cpu_time_total"
    table = prof.key_averages().table(sort_by=sort, row_limit=1, max_name_column_width=200)
    rows = [l for l in table.splitlines() if l.strip() and not set(l.strip()) <= {"-", " "}]
    # rows[0] = column names, rows[1] = the top row, then the "Self CPU time total" footer
    return rows[1].strip().split("  ")[0]
