# expect: fail normalises the name (case, dashes, "allreduce"), so other spellings are accepted instead of raising ValueError
# hint: valueerror|raise|unknown|unsupported|other collective|not one of|spelling|name
_ALIASES = {"allreduce": "all_reduce", "allgather": "all_gather", "reducescatter": "reduce_scatter"}


def bandwidths(nbytes, seconds, world_size, collective):
    name = collective.strip().lower().replace("-", "_").replace(" ", "_")
    name = _ALIASES.get(name.replace("_", ""), name)
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
