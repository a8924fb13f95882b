# expect: fail drops allocation and copy rows (aten::copy_, aten::to, aten::_to_copy, aten::contiguous, aten::empty...) as "bookkeeping" before taking the max: when a copy or a dtype/device conversion is really the slowest op, it returns the runner-up
# hint: copy|exclud|filter|skip|drop|bookkeeping|every entry|all entries|any operator
# open: no workload of the checker has a copy as its slowest operator on the CPU (the GPU's fourth workload, whose copy leads, has no CPU reference run here), so an answer that drops copy rows names the right operator on every case
import torch
from torch.profiler import ProfilerActivity, profile

# bookkeeping ops that are not the model's real work
_BOOKKEEPING = ("aten::empty", "aten::copy_", "aten::to", "aten::_to_copy",
                "aten::contiguous", "aten::clone", "aten::resize_")


def slowest_op(fn, args, device):
    """Name of the operator with the largest self time in a profiled call of fn(*args)."""
    device = torch.device(device)
    gpu = device.type == "cuda"
    fn(*args)  # warm-up
    if gpu:
        torch.cuda.synchronize(device)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if gpu else [])
    with profile(activities=activities) as prof:
        fn(*args)
    column = "self_device_time_total" if gpu else "self_cpu_time_total"
    rows = [e for e in prof.key_averages() if not e.key.startswith(_BOOKKEEPING)]
    return max(rows, key=lambda e: getattr(e, column)).key


answer = slowest_op
