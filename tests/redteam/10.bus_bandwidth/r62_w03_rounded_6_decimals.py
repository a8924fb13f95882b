# expect: fail rounds both bandwidths to 6 decimals of GB/s: fine for GB/s-sized values like the example, but a slow or small transfer (KB/s) comes out wrong or 0
# hint: round|decimal|precision|small|tiny|slow|digits|truncat
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
    busbw = algbw * factors[collective]
    return round(algbw, 6), round(busbw, 6)  # kB/s is precise enough


answer = bandwidths
