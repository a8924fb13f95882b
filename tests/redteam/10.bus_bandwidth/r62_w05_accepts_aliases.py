# expect: fail normalizes the name (lower case, '-' to '_', 'allreduce' style aliases) so "All-Reduce", "allreduce", "ALL_GATHER" return numbers instead of raising ValueError
# hint: ValueError|unknown|invalid|other collective|name|alias|case|raise
_ALIASES = {"allreduce": "all_reduce", "allgather": "all_gather", "reducescatter": "reduce_scatter"}


def bandwidths(nbytes, seconds, world_size, collective):
    name = str(collective).strip().lower().replace("-", "_").replace(" ", "_")
    name = _ALIASES.get(name, name)
    n = world_size
    if name == "all_reduce":
        factor = 2 * (n - 1) / n
    elif name in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif name == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
