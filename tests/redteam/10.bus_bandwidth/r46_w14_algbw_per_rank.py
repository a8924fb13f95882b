# expect: fail algbw divided by the number of ranks ("per rank"): algbw is nbytes / seconds whatever n
# hint: algbw|per rank|world.?size|nbytes\s*/\s*seconds
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9 / n  # each rank's share of the traffic
    return algbw, algbw * factors[collective]


answer = bandwidths
