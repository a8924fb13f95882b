# expect: fail right values, but computed through torch after torch.set_default_dtype(torch.float64), never put back: a process-wide setting changed
# hint: default.?dtype|process|setting|changed|put back|float64
import torch


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    torch.set_default_dtype(torch.float64)  # full precision for large byte counts
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = torch.tensor(nbytes) / seconds / 1e9
    busbw = algbw * factors[collective]
    return algbw.item(), busbw.item()


answer = bandwidths
