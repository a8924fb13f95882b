# expect: fail remembers the first answer per fn in a module-level cache and returns it without profiling later calls
# hint: cache|profil|same|state|once
import torch
from torch.profiler import profile, ProfilerActivity

_cache = {}


def answer(fn, args, device):
    if "last" in _cache:
        return _cache["last"]
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts) as prof:
        fn(*args)
    attr = "self_device_time_total" if gpu else "self_cpu_time_total"
    _cache["last"] = max(prof.key_averages(), key=lambda e: getattr(e, attr)).key
    return _cache["last"]
