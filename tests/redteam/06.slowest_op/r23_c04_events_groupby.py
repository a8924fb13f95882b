# expect: pass sums self times of the raw events per (name, device type, annotation) with itertools.groupby, as key_averages groups them, inside a contextlib.ExitStack
# hint: 
import contextlib
import itertools

import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    attr = f"self_{'device' if gpu else 'cpu'}_time_total"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    with contextlib.ExitStack() as stack:
        prof = stack.enter_context(
            profile(activities=[ProfilerActivity.CPU] + [ProfilerActivity.CUDA] * gpu)
        )
        fn(*args)
    # the same grouping as key_averages: name, where it ran, label or operator
    row_of = lambda ev: (ev.key, str(ev.device_type), ev.is_user_annotation)
    events = sorted(prof.events(), key=row_of)
    totals = {
        row: sum(getattr(ev, attr) for ev in group)
        for row, group in itertools.groupby(events, key=row_of)
    }
    return max(totals, key=totals.__getitem__)[0]


answer = slowest_op
