# expect: fail returns a dict {"algbw": ..., "busbw": ...} instead of the pair (algbw, busbw)
# hint: tuple|pair|dict|return.*\(algbw, busbw\)|two (numbers|values)
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factor = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }.get(collective)
    if factor is None:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return {"algbw": algbw, "busbw": algbw * factor}


answer = bandwidths
