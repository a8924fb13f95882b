# expect: pass builds a {name: self time} dict from key_averages, picks with max(d, key=d.get)
# hint:
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def _wait_for(device):
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def slowest_op(fn, args, device):
    device = device if isinstance(device, torch.device) else torch.device(device)
    gpu = device.type == "cuda"

    fn(*args)  # once, unprofiled
    _wait_for(device)

    acts = {ProfilerActivity.CPU}
    if gpu:
        acts.add(ProfilerActivity.CUDA)
    with profile(activities=list(acts)) as p:
        fn(*args)

    self_us = {}
    for row in p.key_averages():
        t = row.self_device_time_total if gpu else row.self_cpu_time_total
        self_us[row.key] = self_us.get(row.key, 0) + t
    return max(self_us, key=self_us.get)
