# expect: pass a dict of factor functions; a missing key turned into ValueError
# hint:
_FACTORS = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
}


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    try:
        factor = _FACTORS[collective](world_size)
    except (KeyError, TypeError):
        raise ValueError(f"unknown collective {collective!r}; expected one of {sorted(_FACTORS)}") from None
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
