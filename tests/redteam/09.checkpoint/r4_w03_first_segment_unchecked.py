# expect: fail leaves the FIRST segment without a checkpoint (not the last): its activations are kept through the whole backward, so the peak holds two segments' activations
# hint: first|last segment|unchecked|without a checkpoint|activations|peak
import functools
import torch
from torch.utils.checkpoint import checkpoint
def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h
def answer(blocks, x, segments):
    h = x
    for s, part in enumerate(torch.tensor_split(torch.arange(len(blocks)), segments)):
        seg = functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = seg(h) if s == 0 else checkpoint(seg, h, use_reentrant=False)  # one may go unchecked
    return h
