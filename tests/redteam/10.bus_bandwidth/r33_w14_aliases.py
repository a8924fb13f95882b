# expect: fail accepts aliases such as 'allreduce' or 'ALL_REDUCE' (normalizing the name) where any other collective must raise ValueError
# hint: ValueError|other|unknown|collective|name|raise
def bandwidths(nbytes, seconds, world_size, collective):
    name = collective.lower().replace("-", "_").replace(" ", "_")
    name = {"allreduce": "all_reduce", "allgather": "all_gather", "reducescatter": "reduce_scatter"}.get(name, name)
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if name not in factors:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factors[name]

answer = bandwidths
