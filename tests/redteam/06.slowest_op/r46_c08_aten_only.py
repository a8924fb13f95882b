# expect: fail keeps only the aten:: operators' entries (judged right, as r14_w09_aten_only and r3_c01_aten_filter_sorted were: the prompt asks which operator takes the time, and on a GPU an operator ties with or beats its kernels' rows): judged right until round 65, when a workload led by a custom operator came: the prompt asks for the entry with the largest self time, whatever its name, and a filter to aten:: misses any other operator's (torchvision's, an extension's)
# hint: aten|every entry|whatever (its )?name|custom operator
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    operators = [e for e in prof.key_averages() if e.key.startswith("aten::")]  # "operators" only
    return max(operators, key=lambda e: getattr(e, column)).key


answer = slowest_op
