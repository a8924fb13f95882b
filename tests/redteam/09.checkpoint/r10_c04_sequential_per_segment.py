# expect: pass an nn.Sequential per segment, boundaries from rounding i*n/segments, each checkpointed
# hint: -
from torch import nn
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    n = len(blocks)
    # sizes differ by at most one: cut at floor(i * n / segments)
    cuts = [(i * n) // segments for i in range(segments + 1)]
    stages = [nn.Sequential(*blocks[a:b]) for a, b in zip(cuts[:-1], cuts[1:]) if b > a]
    h = x
    for stage in stages:
        h = checkpoint(stage, h, use_reentrant=False)
    return h


answer = checkpointed_forward
