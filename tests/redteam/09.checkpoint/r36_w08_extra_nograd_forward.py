# expect: fail runs the blocks once more under no_grad (to get the output) besides the checkpointed pass: forwards done twice
# hint: twice|once|extra|no_grad|again|more than once|two forwards
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    parts = torch.tensor_split(torch.arange(len(blocks)), segments)
    segs = [functools.partial(_run, [blocks[int(i)] for i in p]) for p in parts]
    # a cheap pass without autograd to find each segment's input
    inputs = [x]
    with torch.no_grad():
        for seg in segs[:-1]:
            inputs.append(seg(inputs[-1]))
    h = x
    for seg in segs:
        h = checkpoint(seg, h, use_reentrant=False)
    return h
