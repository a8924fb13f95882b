# expect: pass starts and stops the profiler explicitly (prof.start()/prof.stop(), stop in a finally) and scans the rows in a plain loop
# hint:
import torch
import torch.profiler


def slowest_op(fn, args, device):
    kind = torch.device(device).type
    fn(*args)
    acts = [torch.profiler.ProfilerActivity.CPU]
    if kind == "cuda":
        torch.cuda.synchronize(torch.device(device))
        acts.append(torch.profiler.ProfilerActivity.CUDA)
    prof = torch.profiler.profile(activities=acts)
    prof.start()
    try:
        fn(*args)
    finally:
        prof.stop()
    best_name, best_time = None, -1.0
    for row in prof.key_averages():
        t = row.self_device_time_total if kind == "cuda" else row.self_cpu_time_total
        if t > best_time:
            best_name, best_time = row.key, t
    return best_name


answer = slowest_op
