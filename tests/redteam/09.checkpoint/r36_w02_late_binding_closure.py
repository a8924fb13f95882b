# expect: fail a lambda made in the loop reads start/end when backward calls it: recomputes the last segment's blocks
# hint: lambda|late|bind|loop variable|closure|partial|after the loop|wrong blocks
# name: checkpointed_forward
import torch
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        start, end = int(part[0]), int(part[-1]) + 1

        def segment(t):
            for block in blocks[start:end]:
                t = block(t)
            return t

        h = checkpoint(segment, h, use_reentrant=False)
    return h
