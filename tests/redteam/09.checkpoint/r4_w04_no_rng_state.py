# expect: fail preserve_rng_state=False to save time: the recomputation draws other random numbers, so blocks with dropout get wrong gradients
# hint: rng|random|dropout|preserve_rng_state|gradient
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
        seg = functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False, preserve_rng_state=False)
    return h
