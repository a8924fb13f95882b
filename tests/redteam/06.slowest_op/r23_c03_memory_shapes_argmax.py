# expect: pass profiles with record_shapes and profile_memory on (rows stay grouped by name), picks the row by torch.argmax over a tensor of self times
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    dev = torch.device(device)
    cuda = dev.type == "cuda"
    fn(*args)
    if cuda:
        torch.cuda.synchronize(dev)
    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if cuda else [ProfilerActivity.CPU]
    with profile(activities=acts, record_shapes=True, profile_memory=True) as prof:
        fn(*args)
    rows = list(prof.key_averages())  # grouped by name: shapes are recorded, not grouped on
    times = torch.tensor(
        [r.self_device_time_total if cuda else r.self_cpu_time_total for r in rows],
        dtype=torch.float64,
    )
    return rows[int(times.argmax())].key


answer = slowest_op
