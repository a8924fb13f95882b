# expect: fail validates the collective only at the first call; later unknown names get factor 1 instead of ValueError
# hint: ValueError|unknown|raise|collective
# name: bandwidths
def _factor(collective, world_size):
    n = world_size
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective in ("all_gather", "reduce_scatter"):
        return (n - 1) / n
    if collective == "broadcast":
        return 1.0
    raise ValueError(f"unknown collective {collective!r}")


_FACTORS = {"all_reduce": None, "all_gather": None, "reduce_scatter": None, "broadcast": None}
_state = {"checked": False}


def bandwidths(nbytes, seconds, world_size, collective):
    if not _state["checked"]:
        _factor(collective, world_size)  # raises ValueError for an unknown collective
        _state["checked"] = True
    n = world_size
    table = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n}
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * table.get(collective, 1.0)
