# expect: fail an unknown collective raises KeyError from the dict lookup, not ValueError
# hint: ValueError|unknown|collective|raise
_FACTORS = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
}


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    factor = _FACTORS[collective](world_size)  # an unknown name fails here anyway
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
