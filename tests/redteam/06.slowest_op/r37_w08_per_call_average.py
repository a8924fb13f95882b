# expect: fail ranks by average self time per call instead of the total self time
# hint: average|per.?call|mean|total|count|number of calls
# name: slowest_op
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
    with profile(activities=acts) as prof:
        fn(*args)

    def self_per_call(e):  # fair to operators called once
        t = e.self_device_time_total if gpu else e.self_cpu_time_total
        return t / max(e.count, 1)

    return max(prof.key_averages(), key=self_per_call).key
