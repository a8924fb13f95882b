# expect: fail divides algbw by the factor instead of multiplying, so busbw is inverted for every collective but broadcast.
# hint: multipl|factor|times|×|divid
# name: bandwidths
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw / factors[collective]

answer = bandwidths
