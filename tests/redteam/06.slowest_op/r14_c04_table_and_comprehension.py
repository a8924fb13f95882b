# expect: pass prints the sorted table, then max over a list of (time, -index, key) tuples
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    is_cuda = device.type == "cuda"
    _ = fn(*args)  # warm-up
    if is_cuda:
        torch.cuda.synchronize(device)
    acts = {ProfilerActivity.CPU} | ({ProfilerActivity.CUDA} if is_cuda else set())
    with profile(activities=list(acts), record_shapes=False) as prof:
        fn(*args)
    col = "self_device_time_total" if is_cuda else "self_cpu_time_total"
    rows = prof.key_averages()
    print(rows.table(sort_by=col, row_limit=5))
    # first of equal times wins, as max() would
    _, _, name = max((getattr(r, col), -i, r.key) for i, r in enumerate(rows))
    return name


answer = slowest_op
