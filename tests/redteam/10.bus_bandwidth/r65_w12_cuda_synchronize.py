# expect: fail calls torch.cuda.synchronize() "so the time is final" where a GPU exists: a device sync (and a CUDA context created) in what must be arithmetic on its arguments
# hint: sync|cuda|device|gpu|context|arithmetic|wait
# Wrong: the prompt: "It is arithmetic on the four arguments: allocate nothing". The
# seconds are given; the sync waits on the GPU and, on first use, allocates its context.
import torch


def answer(nbytes, seconds, world_size, collective):
    if torch.cuda.is_available():
        torch.cuda.synchronize()  # make sure the collective being reported has finished
    n = world_size
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
