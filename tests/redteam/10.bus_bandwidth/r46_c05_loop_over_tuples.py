# expect: pass a loop over a tuple of (name, factor) rules; the times in ns converted by hand; harmless float() of the inputs
# hint:
_RULES = (
    ("all_reduce", lambda n: 2.0 * (n - 1.0) / n),
    ("all_gather", lambda n: (n - 1.0) / n),
    ("reduce_scatter", lambda n: (n - 1.0) / n),
    ("broadcast", lambda n: 1.0),
)


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    for name, rule in _RULES:
        if name == collective:
            break
    else:
        raise ValueError(f"{collective!r} is not one of {[r[0] for r in _RULES]}")
    ns = float(seconds) * 1e9
    algbw = float(nbytes) / ns  # bytes per nanosecond = GB/s
    return (algbw, algbw * rule(float(world_size)))


answer = bandwidths
