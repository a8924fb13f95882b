# expect: fail ranks operators by self time per call (total / count): an operator called many times loses to one slow call
# hint: average|avg|per.call|number of calls|# of calls|count|mean|calls
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
    # "not the number of calls": divide it out, so that counts do not weigh in
    return max(prof.key_averages(), key=lambda e: getattr(e, column) / max(e.count, 1)).key


answer = slowest_op
