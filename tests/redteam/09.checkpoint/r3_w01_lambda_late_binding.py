# expect: fail a lambda in a loop binds the loop variable late
# hint: lambda in a loop
import torch
from torch.utils.checkpoint import checkpoint
def answer(blocks, x, segments):
    n = len(blocks)
    parts = torch.tensor_split(torch.arange(n), segments)
    h = x
    for part in parts:
        seg = [blocks[int(i)] for i in part]
        h = checkpoint(lambda t: [t := b(t) for b in seg][-1], h, use_reentrant=False)
    return h
