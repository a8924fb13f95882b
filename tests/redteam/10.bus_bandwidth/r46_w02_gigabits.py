# expect: fail gigabits per second (bytes times 8), as network links are quoted, instead of gigabytes
# hint: bit|\b8\b|byte|unit|GB/s
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes * 8 / seconds / 1e9  # links are rated in Gb/s
    return algbw, algbw * factors[collective]


answer = bandwidths
