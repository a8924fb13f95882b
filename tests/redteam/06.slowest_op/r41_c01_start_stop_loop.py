# expect: pass profiler driven by start()/stop() instead of a with block, explicit loop to find the maximum
# hint: 
# name: slowest_op
import torch
import torch.profiler


def slowest_op(fn, args, device):
    device = torch.device(device)
    on_gpu = device.type == "cuda"
    fn(*args)  # warm-up: first-call costs stay out of the profile
    if on_gpu:
        torch.cuda.synchronize(device)
    activities = {torch.profiler.ProfilerActivity.CPU}
    if on_gpu:
        activities.add(torch.profiler.ProfilerActivity.CUDA)
    prof = torch.profiler.profile(activities=activities)
    prof.start()
    try:
        fn(*args)
    finally:
        prof.stop()
    best_name, best_time = None, float("-inf")
    for row in prof.key_averages():
        t = row.self_device_time_total if on_gpu else row.self_cpu_time_total
        if t > best_time:
            best_name, best_time = row.key, t
    return best_name
