# expect: fail wraps each segment in torch.random.fork_rng, so every segment's dropout starts from the same RNG state: masks differ from the plain forward's
# hint: rng|random|dropout|fork_rng|seed|mask|draw|plain forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_run, [blocks[int(k)] for k in part])
        # "leave the process as you found it": keep the segment's draws off the global RNG
        with torch.random.fork_rng(devices=[]):
            h = checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
