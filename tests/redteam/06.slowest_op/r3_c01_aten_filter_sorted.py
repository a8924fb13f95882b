# expect: fail only aten:: operators, sorted by the device's self time: judged right until round 65, when a workload led by a custom operator came: the prompt asks for the entry with the largest self time, whatever its name, and a filter to aten:: misses any other operator's (torchvision's, an extension's)
# hint: aten|every entry|whatever (its )?name|custom operator
import torch
import d2lgpu
from torch.profiler import profile, ProfilerActivity
def answer(fn, args, device):
    fn(*args)
    d2lgpu.sync(device)
    gpu = device.type == "cuda"
    with profile(activities=[ProfilerActivity.CPU, *([ProfilerActivity.CUDA] if gpu else [])]) as prof:
        fn(*args)
    attr = "self_device_time_total" if gpu else "self_cpu_time_total"
    ops = sorted((e for e in prof.key_averages() if e.key.startswith("aten::")), key=lambda e: getattr(e, attr))
    return ops[-1].key
