# expect: fail picks the single slowest event of prof.events(), not the largest aggregated self time of key_averages()
# hint: key_averages|aggregat|events\(\)|summed|sum of|every call|all (its )?calls|single (call|event)|one call of
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    # one row per operator call: the longest single call wins, not the operator's summed time
    return max(prof.events(), key=lambda e: getattr(e, column)).key


answer = slowest_op
