# expect: fail one module-level profiler built with acc_events=True is reused by every call, so key_averages() sums the events of all earlier calls too: from the second call on, the answer can be the slowest op of a previous fn
# hint: acc_events|accumulat|previous|earlier|global|module|reuse|shared|state|between calls|each call
import torch
from torch.profiler import ProfilerActivity, profile

# Built once and reused. acc_events=True silences the "Profiler clears events at
# the end of each cycle" warning that re-entering a profiler gives.
_PROFILERS = {
    False: profile(activities=[ProfilerActivity.CPU], acc_events=True),
    True: profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], acc_events=True),
}


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    prof = _PROFILERS[gpu]
    with prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    return max(prof.key_averages(), key=lambda e: getattr(e, column)).key


answer = slowest_op
