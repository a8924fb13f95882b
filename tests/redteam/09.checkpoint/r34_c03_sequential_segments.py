# expect: pass each segment wrapped in an nn.Sequential of its blocks (modules shared, not copied), all segments checkpointed, bounds from tensor_split indices
# hint:
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    pieces = torch.tensor_split(torch.arange(len(blocks)), segments)
    stages = [nn.Sequential(*(blocks[int(i)] for i in piece)) for piece in pieces]
    out = x
    for stage in stages:
        out = checkpoint(stage, out, use_reentrant=False, preserve_rng_state=True)
    return out


answer = checkpointed_forward
