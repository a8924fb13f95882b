# expect: fail no profiler: times fn itself with perf_counter and returns fn's __name__ (a function, not an operator)
# hint: profil|operator|key_averages
import time
import torch


def answer(fn, args, device):
    fn(*args)
    t0 = time.perf_counter()
    fn(*args)
    _ = time.perf_counter() - t0
    return getattr(fn, "__name__", "fn")
