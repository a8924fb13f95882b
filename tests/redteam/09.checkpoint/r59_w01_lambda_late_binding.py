# expect: fail each segment is a lambda made in the loop that reads start/end when called, so backward recomputes the last segment's blocks for every segment
# hint: lambda|late.?binding|closure|loop variable|bind|wrong blocks|recomput
import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    if n == 0:
        return x
    h = x
    for part in torch.tensor_split(torch.arange(n), min(segments, n)):
        start, end = int(part[0]), int(part[-1]) + 1
        h = checkpoint(lambda t: _run(blocks[start:end], t), h, use_reentrant=False)
    return h


answer = checkpointed_forward
