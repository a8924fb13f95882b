# expect: fail divides by 2**30 (GiB/s) instead of 1e9, so both numbers are about 7% low; the prompt defines GB/s as 10^9 bytes per second.
# hint: 1e9|10\^9|GB|GiB|2\*\*30|unit
# name: bandwidths
FACTORS = {"all_reduce": lambda n: 2 * (n - 1) / n, "all_gather": lambda n: (n - 1) / n,
           "reduce_scatter": lambda n: (n - 1) / n, "broadcast": lambda n: 1.0}


def bandwidths(nbytes, seconds, world_size, collective):
    if collective not in FACTORS:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 2**30  # GB/s
    return algbw, algbw * FACTORS[collective](world_size)

answer = bandwidths
