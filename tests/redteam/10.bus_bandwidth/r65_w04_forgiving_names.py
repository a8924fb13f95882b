# expect: fail normalises the name (case, underscores, hyphens) so "AllReduce", "ALL_REDUCE", "allreduce", "all-gather" are accepted instead of raising ValueError
# hint: valueerror|unknown|unsupported|other collective|invalid|raise|case|spelling|exact|alias|normali[sz]
# Wrong: the prompt names four strings and says any other collective raises ValueError;
# this accepts NCCL-style spellings ("AllReduce") and other variants.
_FACTORS = {
    "allreduce": lambda n: 2 * (n - 1) / n,
    "allgather": lambda n: (n - 1) / n,
    "reducescatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
}


def answer(nbytes, seconds, world_size, collective):
    key = str(collective).lower().replace("_", "").replace("-", "").replace(" ", "")
    if key not in _FACTORS:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _FACTORS[key](world_size)
