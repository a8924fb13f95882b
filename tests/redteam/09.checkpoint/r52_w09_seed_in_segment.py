# expect: fail reseeds the global generator inside each segment so the rerun "draws the same": changes the process RNG and the dropout masks
# hint: seed|rng|random|generator|dropout
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, seed, h):
    torch.manual_seed(seed)  # the forward and its recomputation draw the same numbers
    for block in part:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for k, idx in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part, 1000 + k), h, use_reentrant=False)
    return h


answer = checkpointed_forward
