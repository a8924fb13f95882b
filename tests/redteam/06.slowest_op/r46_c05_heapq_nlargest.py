# expect: pass heapq.nlargest(1, ...) over the averages; the device given as a string works too
# hint:
import heapq

import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    on_gpu = torch.device(device).type == "cuda"

    def self_time(row):
        return row.self_device_time_total if on_gpu else row.self_cpu_time_total

    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(torch.device(device))
    activities = [ProfilerActivity.CPU]
    if on_gpu:
        activities += [ProfilerActivity.CUDA]
    prof = profile(activities=activities)
    prof.start()
    try:
        fn(*args)
    finally:
        prof.stop()
    (top,) = heapq.nlargest(1, prof.key_averages(), key=self_time)
    return top.key


answer = slowest_op
