# expect: fail dispatches on substrings, so "gather", "scatter", "all_gather_into_tensor", "reduce" ... return numbers instead of ValueError
# hint: valueerror|raise|unknown|unsupported|other collective|not one of|name
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if "broadcast" in collective:
        factor = 1.0
    elif "gather" in collective or "scatter" in collective:
        factor = (n - 1) / n
    elif "reduce" in collective:
        factor = 2 * (n - 1) / n
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
