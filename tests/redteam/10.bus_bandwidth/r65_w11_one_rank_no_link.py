# expect: fail returns busbw 0 for every collective on one rank ("no link"), but the broadcast factor is 1 whatever n, so a 1-rank broadcast must give busbw = algbw
# hint: broadcast|one rank|single rank|1 rank|world.?size (of |=|==|is )?1|n ?==? ?1|factor (of |is )?1
# Wrong: the prompt's table gives broadcast the factor 1; the shortcut agrees with the
# formulas for the other three (their factor is 0 at n = 1) and breaks only there.
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
    if n == 1:  # one rank: nothing crosses a link
        return algbw, 0.0
    return algbw, algbw * factors[collective]
