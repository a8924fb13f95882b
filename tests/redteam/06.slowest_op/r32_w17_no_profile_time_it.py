# expect: fail times each aten op itself by wall clock around fn instead of using the profiler, returning the name of the Python function
# hint: profil|key_averages|aten
import torch
from torch.profiler import ProfilerActivity, profile

import d2lgpu


import time


def slowest_op(fn, args, device):
    fn(*args)
    d2lgpu.sync(device)
    start = time.perf_counter()
    fn(*args)
    d2lgpu.sync(device)
    _ = time.perf_counter() - start
    return getattr(fn, "__name__", "fn")


answer = slowest_op
