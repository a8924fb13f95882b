# expect: pass explicit profiler start()/stop(), d2lgpu.sync, heapq.nlargest on an attrgetter
# hint:
# name: slowest_op
import heapq
from operator import attrgetter

import torch
import torch.profiler as tp

import d2lgpu


def slowest_op(fn, args, device):
    kind = torch.device(device).type
    wanted = [tp.ProfilerActivity.CPU]
    if kind == "cuda":
        wanted.append(tp.ProfilerActivity.CUDA)

    fn(*args)
    d2lgpu.sync(torch.device(device))  # no-op on the CPU

    profiler = tp.profile(activities=wanted)
    profiler.start()
    try:
        fn(*args)
    finally:
        profiler.stop()  # stopping also waits for the GPU

    self_time = attrgetter("self_device_time_total" if kind == "cuda" else "self_cpu_time_total")
    (top,) = heapq.nlargest(1, profiler.key_averages(), key=self_time)
    return top.key
