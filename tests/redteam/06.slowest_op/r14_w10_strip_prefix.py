# expect: fail returns the name without its aten:: prefix ("mm" instead of "aten::mm")
# hint: prefix|full name|exact name|namespace|strip|as (it|\.key) (is|reads)
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
    top = max(prof.key_averages(), key=lambda e: getattr(e, column))
    return top.key.split("::")[-1]  # a readable name: "mm", "convolution_backward"


answer = slowest_op
