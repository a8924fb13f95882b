# expect: pass dict of factor lambdas, KeyError turned into ValueError
# hint: 
_FACTORS = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
}


def bandwidths(nbytes, seconds, world_size, collective):
    try:
        factor = _FACTORS[collective](world_size)
    except KeyError:
        raise ValueError(f"unknown collective {collective!r}") from None
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
