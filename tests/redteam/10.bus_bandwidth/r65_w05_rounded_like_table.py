# expect: fail rounds both bandwidths to 3 decimals (the chapter table's print format), so small bandwidths (a few KiB, or a slow run) come back off by up to several percent or as 0.0
# hint: round|decimal|precision|digits|truncat|format|exact|small (size|value|bandwidth)
# Wrong: the prompt asks for algbw = nbytes / seconds in GB/s, not a value rounded for
# printing; 4 KiB in 342 us is 0.01198 GB/s, returned as 0.012.
def answer(nbytes, seconds, world_size, collective):
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
    return round(algbw, 3), round(algbw * factors[collective], 3)
