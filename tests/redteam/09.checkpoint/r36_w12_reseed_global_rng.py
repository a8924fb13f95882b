# expect: fail reseeds the global RNG in each segment instead of preserving its state: changes the process's random state
# hint: seed|rng|random|global|state|generator|process
# name: checkpointed_forward
import torch
from torch.utils.checkpoint import checkpoint


def _make(mods, seed):
    def run(h):
        torch.manual_seed(seed)  # the same dropout masks in forward and recompute
        for m in mods:
            h = m(h)
        return h

    return run


def checkpointed_forward(blocks, x, segments):
    h = x
    for s, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        mods = [blocks[int(i)] for i in part]
        h = checkpoint(_make(mods, 1234 + s), h, use_reentrant=False, preserve_rng_state=False)
    return h
