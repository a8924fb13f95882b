# expect: fail filters to aten:: names but also drops "internal" ops whose name starts with aten::_ (e.g. aten::_softmax, aten::_slow_conv2d_forward), which can hold the work
# hint: filter|aten::_|internal|underscore|largest|slowest
import torch
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    gpu = device.type == "cuda"
    fn(*args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts) as prof:
        fn(*args)
    attr = "self_device_time_total" if gpu else "self_cpu_time_total"
    public = [e for e in prof.key_averages()
              if e.key.startswith("aten::") and not e.key.startswith("aten::_")]
    return max(public, key=lambda e: getattr(e, attr)).key
