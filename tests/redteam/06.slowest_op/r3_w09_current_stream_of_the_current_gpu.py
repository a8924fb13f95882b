# expect: fail torch.cuda.current_stream().synchronize() with no device waits for the current GPU's stream, not device's (e.g. cuda:1): the prompt says synchronize `device` (relabelled: was 'pass the last entry of an ascending sort by self time'; a sync of another GPU than device leaves device's warm-up running)
# hint: current (gpu|device)|synchroni[sz]e\(device\)|waited for cuda|not for device
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
