# expect: pass itertools.islice over the ModuleList iterator; lambda with bound default argument (lambda h, m=mods: ...)
# hint: 
import itertools
import torch
from torch.utils.checkpoint import checkpoint
def answer(blocks, x, segments):
    it = iter(blocks)
    sizes = [len(p) for p in torch.tensor_split(torch.arange(len(blocks)), segments)]
    h = x
    for s in sizes:
        mods = tuple(itertools.islice(it, s))
        h = checkpoint(lambda t, m=mods: _run(m, t), h, use_reentrant=False)
    return h
def _run(mods, t):
    for b in mods:
        t = b(t)
    return t
