# expect: fail returns (busbw, algbw), the pair swapped
# hint: order|pair|swap|algbw|busbw
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
    algbw = nbytes / seconds / 1e9
    busbw = algbw * factors[collective]
    return busbw, algbw
