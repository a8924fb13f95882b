# expect: fail rounds both results to 2 decimals, so small bandwidths lose their digits (or become 0.0)
# hint: round|decimal|precision|digits|exact
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    try:
        factor = factors[collective]
    except KeyError:
        raise ValueError(f"unknown collective {collective!r}") from None
    algbw = nbytes / seconds / 1e9
    return round(algbw, 2), round(algbw * factor, 2)  # GB/s, as nccl-tests prints them


answer = bandwidths
