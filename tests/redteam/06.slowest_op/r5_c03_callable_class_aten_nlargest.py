# expect: fail a callable object; prints the table; filters to aten:: entries; heapq.nlargest by self time: judged right until round 65, when a workload led by a custom operator came: the prompt asks for the entry with the largest self time, whatever its name, and a filter to aten:: misses any other operator's (torchvision's, an extension's)
# hint: aten|every entry|whatever (its )?name|custom operator
import heapq
import torch
import d2lgpu
from torch.profiler import profile, ProfilerActivity


class SlowestOp:
    def __call__(self, fn, args, device):
        gpu = device.type == "cuda"
        fn(*args)
        d2lgpu.sync(device)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
        with profile(activities=acts) as prof:
            fn(*args)
        col = "self_device_time_total" if gpu else "self_cpu_time_total"
        avgs = prof.key_averages()
        print(avgs.table(sort_by=col, row_limit=5))
        aten = [e for e in avgs if e.key.startswith("aten::")]
        (top,) = heapq.nlargest(1, aten, key=lambda e: getattr(e, col))
        print("slowest:", top.key)
        return top.key


answer = SlowestOp()
