# expect: pass sorts the key_averages rows descending by self time, syncs inside the profiled region too
# hint:
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Warm up, profile one call, name the operator with the most self time."""
    dev = torch.device(device)
    cuda = dev.type == "cuda"
    sync = (lambda: torch.cuda.synchronize(dev)) if cuda else (lambda: None)

    fn(*args)
    sync()
    with profile(
        activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] if cuda else [ProfilerActivity.CPU],
        record_shapes=False,
    ) as prof:
        fn(*args)
        sync()  # harmless: the profiler waits for the GPU when it stops anyway

    if cuda:
        rows = sorted(prof.key_averages(), key=lambda r: r.self_device_time_total, reverse=True)
    else:
        rows = sorted(prof.key_averages(), key=lambda r: r.self_cpu_time_total, reverse=True)
    return rows[0].key
