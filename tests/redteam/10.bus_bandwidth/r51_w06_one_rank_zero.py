# expect: fail special-cases one rank as "no link traffic": busbw 0 for every collective, but a broadcast's factor is 1 on any n
# hint: broadcast|one rank|single rank|1 rank|world_size.?=+.?1|n ?=+ ?1
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    if n == 1:  # a single rank sends nothing over any link
        return algbw, 0.0
    return algbw, algbw * factors[collective]


answer = bandwidths
