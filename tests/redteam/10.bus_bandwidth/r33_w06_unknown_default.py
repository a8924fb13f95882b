# expect: fail returns (algbw, algbw) for an unknown collective instead of raising ValueError
# hint: ValueError|unknown|other|collective|raise
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factor = {"all_reduce": 2 * (n - 1) / n,
              "all_gather": (n - 1) / n,
              "reduce_scatter": (n - 1) / n}.get(collective, 1.0)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
