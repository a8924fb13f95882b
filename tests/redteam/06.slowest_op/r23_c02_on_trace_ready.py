# expect: pass the answer is computed in the profiler's on_trace_ready callback (called when the profile stops), handed back through a one-element list
# hint: 
import torch
import torch.profiler as tp


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
    found = []

    def pick(prof):
        rows = prof.key_averages()
        found.append(max(rows, key=lambda r: getattr(r, column)).key)

    fn(*args)
    if on_gpu:
        torch.cuda.synchronize(device)
    acts = [tp.ProfilerActivity.CPU, *([tp.ProfilerActivity.CUDA] if on_gpu else [])]
    with tp.profile(activities=acts, on_trace_ready=pick):
        fn(*args)
    (name,) = found
    return name


answer = slowest_op
