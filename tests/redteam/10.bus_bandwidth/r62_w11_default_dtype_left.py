# expect: fail sets torch's default dtype to float64 to compute in tensors and never puts it back: right numbers, but a process-wide setting is left changed
# hint: default.?dtype|set_default_dtype|float64|process|setting|global|left|restore|put back
import torch


def bandwidths(nbytes, seconds, world_size, collective):
    torch.set_default_dtype(torch.float64)  # keep Python floats' precision
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    t = torch.tensor([nbytes, seconds, factors[collective]])
    algbw = t[0] / t[1] / 1e9
    return algbw.item(), (algbw * t[2]).item()


answer = bandwidths
