# expect: fail names normalized (case, hyphens, no underscore: "ALL-REDUCE", "allreduce" accepted) so other collective strings do not raise ValueError
# hint: ValueError|unknown|collective|raise
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    key = collective.lower().replace("-", "_").replace(" ", "_")
    key = {"allreduce": "all_reduce", "allgather": "all_gather", "reducescatter": "reduce_scatter"}.get(key, key)
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if key not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factors[key]


answer = bandwidths
