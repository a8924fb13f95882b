# expect: fail zeroes the blocks' gradients before the forward, wiping the gradients the caller already had in .grad, which the function must leave alone
# hint: grad|zero|leave|alone
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    blocks.zero_grad()  # a fresh start for the gradients backward will compute
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    return h
