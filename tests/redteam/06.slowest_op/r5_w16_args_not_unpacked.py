# expect: fail calls fn(args) instead of fn(*args), so fn gets one tuple argument (raises for the checker's workloads, or works only with empty args by accident)
# hint: \*args|fn\(|argument|raise|error|exception|TypeError
import torch
from torch.profiler import profile, ProfilerActivity


def answer(fn, args, device):
    gpu = device.type == "cuda"
    fn(args)
    if gpu:
        torch.cuda.synchronize(device)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=acts) as prof:
        fn(args)
    attr = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, attr)).key
