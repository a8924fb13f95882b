# expect: fail only considers entries whose name starts with aten::, so a non-aten entry (custom op, kernel) is never returned
# hint: aten|filter|skipp|exclud|every entry|all entries|any entry|whatever (its )?name
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
    attr = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    operators = [e for e in prof.key_averages() if e.key.startswith("aten::")]
    return max(operators, key=lambda e: getattr(e, attr)).key


answer = slowest_op
