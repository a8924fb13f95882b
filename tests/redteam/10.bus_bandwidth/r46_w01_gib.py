# expect: fail GiB/s (2**30 bytes) instead of GB/s (10**9 bytes)
# hint: GiB|2\s*\*\*\s*30|1024|10\s*\*\*\s*9|1e9|GB/s|unit
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 2**30  # a gigabyte of memory is 1024**3 bytes
    return algbw, algbw * factors[collective]


answer = bandwidths
