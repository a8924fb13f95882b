# expect: fail computes with torch after torch.set_default_dtype(torch.float64) and leaves the process-wide default dtype changed
# hint: default.?dtype|set_default_dtype|process.?wide|setting|global|float64|left changed|restore|put back
import torch


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    torch.set_default_dtype(torch.float64)  # float32 would round the byte counts
    n = torch.tensor(float(world_size))
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": torch.tensor(1.0),
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = torch.tensor(float(nbytes)) / seconds / 1e9
    return algbw.item(), (algbw * factors[collective]).item()


answer = bandwidths
