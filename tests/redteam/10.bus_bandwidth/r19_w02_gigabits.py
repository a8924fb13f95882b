# expect: fail reports gigabits per second (multiplies the bytes by 8), not gigabytes
# hint: bits?\b|\* ?8|gigabit|Gb/s|GB/s|bytes,? not bits|byte
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1}
    if collective not in factors:
        raise ValueError(f"collective must be one of {sorted(factors)}, got {collective!r}")
    # link speeds are quoted in Gb/s (400 Gb/s InfiniBand): report the same unit
    algbw = nbytes * 8 / seconds / 1e9
    return algbw, algbw * factors[collective]


answer = bandwidths
