# expect: fail switches the blocks to eval mode for the forward (so that dropout cannot make the recomputation differ) and back to train afterwards: the output is not the blocks' own in train mode, and the recomputation runs in another mode than the forward
# hint: eval|train(ing)?\b|mode|dropout
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    if n == 0:
        return x
    was_training = blocks.training
    blocks.eval()  # no dropout: nothing random to recompute
    try:
        h = x
        for part in torch.tensor_split(torch.arange(n), min(segments, n)):
            segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
            h = checkpoint(segment, h, use_reentrant=False)
    finally:
        blocks.train(was_training)
    return h


answer = checkpointed_forward
