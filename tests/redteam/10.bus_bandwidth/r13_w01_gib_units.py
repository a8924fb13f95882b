# expect: fail GB/s computed with 2**30 (GiB/s) instead of 10**9
# hint: 10\*\*9|1e9|10\^9|10<sup>9</sup>|gib|2\*\*30|1024|binary|giga|bytes per second
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
    GB = 1024**3  # a gigabyte
    algbw = nbytes / seconds / GB
    return algbw, algbw * factors[collective]


answer = bandwidths
