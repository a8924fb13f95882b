# expect: fail divides algbw by the factor instead of multiplying (same only for broadcast and all_reduce on 2 ranks)
# hint: factor|multipl|divid|invert|busbw|algbw ?[x×*]
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
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
    return algbw, algbw / factors[collective]


answer = bandwidths
