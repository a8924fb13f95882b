# expect: fail lower-cases the collective before looking it up, so "All_Reduce" or "BROADCAST" get a factor instead of the ValueError that any other string must raise.
# hint: (upper|lower|mixed)[- ]?case|case[- ]?(in)?sensitive|\.lower\(\)|exact(ly)? (name|string|spelling)|(other|unknown|invalid|any other) (string|name|collective).*valueerror|valueerror
FACTORS = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
}


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    name = collective.lower()  # be forgiving about how the name is typed
    if name not in FACTORS:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * FACTORS[name](world_size)


answer = bandwidths
