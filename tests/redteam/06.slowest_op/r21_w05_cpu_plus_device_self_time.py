# expect: fail ranks by self CPU time plus self device time: right on the CPU (device time 0), but on a GPU the CPU launch time is added in, so a cheap op launched slowly can win
# hint: cpu (time|column)|launch|sum|plus|add|both columns|device time only|self_device
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    # all the time an operator costs, wherever it is spent
    return max(
        prof.key_averages(), key=lambda e: e.self_cpu_time_total + e.self_device_time_total
    ).key


answer = slowest_op
