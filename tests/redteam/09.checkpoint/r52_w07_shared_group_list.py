# expect: fail every segment's partial binds the same list, refilled in the loop: backward recomputes the last segment's blocks
# hint: recomput|wrong blocks|loop|bound|bind|closure|same list
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    sizes = [len(idx) for idx in torch.tensor_split(torch.arange(len(blocks)), segments)]
    group = []  # reused for every segment, to avoid allocating a list each time
    it = iter(blocks)
    h = x
    for size in sizes:
        group.clear()
        group.extend(next(it) for _ in range(size))
        h = checkpoint(functools.partial(_run, group), h, use_reentrant=False)
    return h


answer = checkpointed_forward
