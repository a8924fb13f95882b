# expect: fail torch.accelerator.synchronize() with no argument waits for the current GPU, not device (relabelled in round 32, as r21_w90)
# hint: cuda:1|device itself|current GPU
import torch
def answer(fn, args, device):
    fn(*args)
    if device.type != "cpu":
        torch.accelerator.synchronize()
    use = "cuda" if device.type == "cuda" else None
    with torch.autograd.profiler.profile(use_device=use) as prof:
        fn(*args)
    attr = "self_device_time_total" if use else "self_cpu_time_total"
    totals = {}
    for e in prof.key_averages():
        totals[e.key] = totals.get(e.key, 0) + getattr(e, attr)
    return max(totals.items(), key=lambda kv: kv[1])[0]
