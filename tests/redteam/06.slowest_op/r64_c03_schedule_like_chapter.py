# expect: pass
# hint:
# Right (a form a strict checker might refuse): the chapter's own schedule. wait=1 is the
# warm-up (not recorded), warmup=1 a second warm-up (recorded, discarded), active=1 the one
# profiled call; the device is synchronized after each warm-up, before recording starts.
# The schedule adds its own "ProfilerStep*" range (not an operator of fn): it is left out.
import torch
from torch.profiler import ProfilerActivity, profile, schedule

import d2lgpu


def answer(fn, args, device):
    on_gpu = torch.device(device).type == "cuda"
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities, schedule=schedule(wait=1, warmup=1, active=1)) as prof:
        for _ in range(3):
            fn(*args)
            d2lgpu.sync(device)  # after each warm-up; on the last call the profiler syncs too
            prof.step()
    sort_by = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    entries = [e for e in prof.key_averages() if not e.key.startswith("ProfilerStep")]
    return max(entries, key=lambda e: getattr(e, sort_by)).key
