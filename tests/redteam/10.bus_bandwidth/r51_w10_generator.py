# expect: fail written as a generator (yield algbw; yield busbw): unpacking works, but the call returns no pair and raises no ValueError until iterated
# hint: valueerror|raise|generator|tuple|pair|iterat|lazy|return
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
    yield algbw
    yield algbw * factors[collective]


answer = bandwidths
