# expect: pass functools.partial per segment, tensor_split sizes, the last segment plain
# hint: 
import functools
import torch
from torch.utils.checkpoint import checkpoint
def run(seg, h):
    for b in seg:
        h = b(h)
    return h
def answer(blocks, x, segments):
    parts = [list(p) for p in torch.tensor_split(torch.arange(len(blocks)), segments)]
    h = x
    for k, part in enumerate(parts):
        seg = [blocks[int(i)] for i in part]
        f = functools.partial(run, seg)
        h = f(h) if k == len(parts) - 1 else checkpoint(f, h, use_reentrant=False)
    return h
