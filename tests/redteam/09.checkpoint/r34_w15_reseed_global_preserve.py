# expect: fail reseeds the global generator (torch.manual_seed) inside each segment function for repeatable dropout: changes the process RNG state and draws other masks than the plain forward
# hint: seed|random|generator|rng|fork_rng
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _chain(mods, seed, h):
    torch.manual_seed(seed)  # same draws in forward and in the recomputation
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for i, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        seg = functools.partial(_chain, blocks[int(part[0]) : int(part[-1]) + 1], 1000 + i)
        h = checkpoint(seg, h, use_reentrant=False, preserve_rng_state=True)
    return h


answer = checkpointed_forward
