# expect: fail a lambda made in the loop reads start/stop when backward calls it, after the loop: recomputes the last segment's blocks
# hint: lambda|late|loop|bind|partial|default argument|after the loop
import torch
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        start, stop = int(part[0]), int(part[-1]) + 1
        h = checkpoint(lambda t: _chain(blocks, start, stop, t), h, use_reentrant=False)
    return h


def _chain(blocks, start, stop, t):
    for k in range(start, stop):
        t = blocks[k](t)
    return t


answer = checkpointed_forward
