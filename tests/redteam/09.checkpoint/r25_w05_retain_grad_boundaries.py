# expect: fail calls retain_grad() on each segment boundary (the input included when it requires a gradient), so backward stores a gradient on every boundary tensor, and on the caller's input, memory held beyond what checkpointing keeps
# hint: retain_grad|\.grad|boundar|gradient.*(kept|stored|held|input)|input.*(grad|chang)
# open: retain_grad() on a leaf input does nothing, and on the segments' boundaries it keeps a .grad only while those tensors live: the bytes saved for backward, counted during the forward, do not show it
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        if len(part) == 0:
            continue
        if h.requires_grad:
            h.retain_grad()  # backward restarts from each segment's input
        start, stop = int(part[0]), int(part[-1]) + 1
        h = checkpoint(functools.partial(_run, blocks[start:stop]), h, use_reentrant=False)
    return h
