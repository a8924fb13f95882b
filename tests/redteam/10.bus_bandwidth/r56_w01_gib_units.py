# expect: fail returns GiB/s (divides by 2**30) instead of GB/s (10**9 bytes per second)
# hint: GB/s|10\*\*9|1e9|GiB|2\*\*30|unit
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
    algbw = nbytes / seconds / 2**30
    return algbw, algbw * factors[collective]


answer = bandwidths
