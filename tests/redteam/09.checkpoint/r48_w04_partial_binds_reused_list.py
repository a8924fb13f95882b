# expect: fail functools.partial binds one list object that the loop clears and refills: backward recomputes every segment with the last segment's blocks
# hint: block|recomput|wrong|segment|bind|late|gradient

import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    seg = []  # one buffer, refilled per segment
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg.clear()
        seg.extend(blocks[int(k)] for k in part)
        h = checkpoint(functools.partial(_run, seg), h, use_reentrant=False)  # partial binds now...
    return h

answer = checkpointed_forward
