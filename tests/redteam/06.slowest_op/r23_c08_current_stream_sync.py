# expect: pass waits for the current stream of device after the warm-up (a stream's synchronize()): fn queues its work on that stream, so the profile starts after it, as after torch.cuda.synchronize(device); relabelled right
# hint: 
import torch
from torch.profiler import ProfilerActivity, profile


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        # wait on the stream the warm-up ran on, not on every stream of the GPU
        torch.cuda.current_stream(device).synchronize()
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
