# expect: fail forgets to return the output (returns None)
# hint: none|return
import functools
import torch
from torch.utils.checkpoint import checkpoint
def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h
def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
