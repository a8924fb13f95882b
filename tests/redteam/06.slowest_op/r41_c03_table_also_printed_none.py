# expect: pass extra harmless work: builds the sorted table text (not printed), result from a dict of name -> self time
# hint: 
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    sort_by = "self_device_time_total" if gpu else "self_cpu_time_total"
    _ = fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU]
    if gpu:
        activities.append(ProfilerActivity.CUDA)
    with profile(activities=activities, record_shapes=False) as prof:
        _ = fn(*args)
    averages = prof.key_averages()
    _table = averages.table(sort_by=sort_by, row_limit=5)  # for a human; the answer comes from the rows
    times = {row.key: getattr(row, sort_by) for row in averages}
    return max(times, key=times.get)
