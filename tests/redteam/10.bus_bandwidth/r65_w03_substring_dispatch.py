# expect: fail validates the name by substring ("reduce" in "all_reduce ...") so dist's other collectives "reduce", "gather", "scatter" are accepted instead of raising ValueError
# hint: valueerror|unknown|unsupported|other collective|invalid|raise|not one of|substring|accept
# Wrong: the prompt says any other collective raises ValueError; "reduce" (dist.reduce)
# passes the substring test and is reported with the all-reduce factor.
KNOWN = "all_reduce all_gather reduce_scatter broadcast"


def answer(nbytes, seconds, world_size, collective):
    if not collective or collective not in KNOWN:
        raise ValueError(f"unknown collective {collective!r}")
    n = world_size
    if "scatter" in collective or "gather" in collective:
        factor = (n - 1) / n
    elif "reduce" in collective:
        factor = 2 * (n - 1) / n
    else:
        factor = 1.0
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
