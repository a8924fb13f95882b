# expect: fail allocates a uint8 tensor of nbytes to count its bytes (numel * element_size), deleted before returning: the prompt says allocate nothing
# hint: alloc|buffer|tensor|memory|torch\.empty|arithmetic|peak
# Wrong: "It is arithmetic on the four arguments: allocate nothing (no buffer of nbytes
# to count its bytes)". The buffer is freed before return, so only the peak shows it.
import torch


def answer(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    buf = torch.empty(nbytes, dtype=torch.uint8)  # the buffer the collective moved
    size = buf.numel() * buf.element_size()
    del buf
    algbw = size / seconds / 1e9
    return algbw, algbw * factors[collective]
