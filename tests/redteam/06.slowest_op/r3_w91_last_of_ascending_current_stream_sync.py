# expect: fail torch.cuda.current_stream().synchronize() waits for the current GPU's stream, not device's (relabelled in round 32, as r21_w90)
# hint: cuda:1|device itself|current GPU
import torch
from torch.profiler import profile, ProfilerActivity
def answer(fn, args, device):
    fn(*args)
    if device.type == "cuda":
        torch.cuda.current_stream().synchronize()
    acts = [ProfilerActivity.CPU]
    if device.type == "cuda":
        acts.append(ProfilerActivity.CUDA)
    with profile(activities=acts) as prof:
        fn(*args)
    attr = "self_device_time_total" if device.type == "cuda" else "self_cpu_time_total"
    return sorted(prof.key_averages(), key=lambda e: getattr(e, attr))[-1].key
