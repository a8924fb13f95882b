# expect: fail converts to GB/s as MiB/s divided by 1000 (2**20 * 1000 bytes, not 10**9): both bandwidths about 4.9% too small
# hint: GB|GiB|MiB|2 ?\*\* ?20|1024|10 ?\*\* ?9|1e9|unit|bytes per second
MIB = 2**20


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
    algbw = nbytes / MIB / seconds / 1000  # MB/s -> GB/s
    return algbw, algbw * factors[collective]


answer = bandwidths
