# expect: fail makes each segment a lambda over the loop's start and end, which backward calls after the loop, so every recomputation runs the last segment's blocks and the gradients are wrong
# hint: lambda|loop|bind|partial|late|closure
# name: checkpointed_forward
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
        start, end = int(part[0]), int(part[-1]) + 1
        h = checkpoint(lambda t: _run(blocks[start:end], t), h, use_reentrant=False)
    return h
