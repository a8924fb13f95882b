# expect: fail a nested def in the loop reads the loop variable `part` (late binding, like the chapter's lambda trap): backward recomputes the last segment's blocks for every segment
# hint: late|bind|loop|lambda|partial|recomput|wrong blocks|default
import functools
import math
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        def seg(h):
            for k in part.tolist():
                h = blocks[k](h)
            return h
        h = checkpoint(seg, h, use_reentrant=False)
    return h
