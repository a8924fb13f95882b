# expect: fail broadcast factor (n-1)/n instead of 1
# hint: broadcast
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    ring = (n - 1) / n
    factors = {
        "all_reduce": 2 * ring,
        "all_gather": ring,
        "reduce_scatter": ring,
        "broadcast": ring,  # the root's buffer goes to the n - 1 others
    }
    try:
        factor = factors[collective]
    except KeyError:
        raise ValueError(f"unknown collective {collective!r}") from None
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
