# expect: fail blocks.eval() so that the recomputation "draws the same numbers": dropout is switched off (output differs from the training-mode forward) and the caller's modules are left in eval mode
# hint: eval|train|dropout|mode|rng|random
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    blocks.eval()  # a recomputation must give the same activations as the forward
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
    return h
