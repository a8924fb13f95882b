# expect: fail also accepts nccl-tests' and torch's spellings ("allreduce", "all-reduce", "allgather", "reducescatter", "bcast") as aliases, where the prompt says any other collective raises ValueError.
# hint: alias|spelling|allreduce|all-reduce|hyphen|(other|unknown|invalid|any other) (string|name|collective)|valueerror
ALIASES = {
    "all_reduce": "all_reduce", "allreduce": "all_reduce", "all-reduce": "all_reduce",
    "all_gather": "all_gather", "allgather": "all_gather", "all-gather": "all_gather",
    "reduce_scatter": "reduce_scatter", "reducescatter": "reduce_scatter",
    "reduce-scatter": "reduce_scatter",
    "broadcast": "broadcast", "bcast": "broadcast",
}


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    try:
        kind = ALIASES[collective]
    except KeyError:
        raise ValueError(f"unknown collective {collective!r}") from None
    n = world_size
    factor = {"all_reduce": 2 * (n - 1) / n, "broadcast": 1.0}.get(kind, (n - 1) / n)
    algbw = nbytes / seconds / 10**9
    return algbw, algbw * factor


answer = bandwidths
