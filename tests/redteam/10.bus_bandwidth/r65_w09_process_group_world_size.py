# expect: fail takes n from dist.get_world_size() whenever a process group is initialised, ignoring the world_size argument
# hint: world.?size (argument|given|passed|parameter)|argument|get_world_size|process group|torch\.distributed|dist\.|ignor
# Wrong: the prompt says "It is arithmetic on the four arguments"; called inside a
# process group of another size (e.g. rank 0 of 2 reporting an 8-rank result) it uses 2.
import torch.distributed as dist


def answer(nbytes, seconds, world_size, collective):
    n = dist.get_world_size() if dist.is_available() and dist.is_initialized() else world_size
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
