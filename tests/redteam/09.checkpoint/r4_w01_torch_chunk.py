# expect: fail torch.chunk instead of torch.tensor_split: chunk gives ceil-sized pieces, so 9 blocks in 4 segments become 3 segments of 3 (fewer segments than asked)
# hint: segments?|chunk|tensor_split|fewer
import functools
import torch
from torch.utils.checkpoint import checkpoint
def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h
def answer(blocks, x, segments):
    h = x
    for part in torch.chunk(torch.arange(len(blocks)), segments):
        seg = functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
