# expect: fail returns (busbw, algbw), the pair in the wrong order
# hint: order|swap|algbw|busbw|pair
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    busbw = algbw * factors[collective]
    return busbw, algbw


answer = bandwidths
