# expect: fail allocates a real nbytes-byte tensor just to count its bytes: right numbers, but memory and time that grow with nbytes (GBs for a large collective)
# hint: alloc|memory|buffer|tensor|torch\.empty|nbytes|cost|large|RAM
import torch


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    buffer = torch.empty(int(nbytes), dtype=torch.uint8)  # the collective's buffer
    size = buffer.numel() * buffer.element_size()
    algbw = size / seconds / 1e9
    return algbw, algbw * factors[collective]


answer = bandwidths
