# expect: fail checks the collective with assert, so an unknown one raises AssertionError, not ValueError (and nothing at all under python -O).
# hint: assert(ion)?|valueerror|raise|-O|exception type|(unknown|invalid|other) (collective|name)
FACTOR = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
}


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    assert collective in FACTOR, f"unknown collective {collective!r}"
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * FACTOR.get(collective, lambda n: 1.0)(world_size)


answer = bandwidths
