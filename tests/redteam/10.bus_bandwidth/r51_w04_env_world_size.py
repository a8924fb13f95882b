# expect: fail takes the number of ranks from $WORLD_SIZE (torchrun's variable) when set, not from the world_size argument
# hint: world_?size|environ|environment|argument|rank
import os


def bandwidths(nbytes, seconds, world_size, collective):
    n = int(os.environ.get("WORLD_SIZE", world_size))  # torchrun sets it
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factors[collective]


answer = bandwidths
