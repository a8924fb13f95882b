# expect: pass builds (time, name) pairs from key_averages with a generator, sorted descending; the device arrives as a str or torch.device and is compared through .type
# hint: 
from torch import device as as_device
from torch.cuda import synchronize
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    kind = as_device(device).type
    fn(*args)  # one call to warm up
    if kind == "cuda":
        synchronize(device)
    activities = {"cpu": [ProfilerActivity.CPU]}.get(kind, [ProfilerActivity.CPU, ProfilerActivity.CUDA])
    with profile(activities=activities) as prof:
        fn(*args)
    pairs = sorted(
        ((row.self_cpu_time_total if kind == "cpu" else row.self_device_time_total, row.key)
         for row in prof.key_averages()),
        key=lambda p: p[0],
        reverse=True,
    )
    return pairs[0][1]


answer = slowest_op
