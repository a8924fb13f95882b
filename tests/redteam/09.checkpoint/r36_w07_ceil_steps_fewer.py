# expect: fail steps of ceil(n/segments) give fewer segments than asked (9 blocks in 4: 3, 3, 3)
# hint: fewer|number of segments|segments? count|how many|ceil|exactly|three
# name: checkpointed_forward
import math

from torch.utils.checkpoint import checkpoint


def _make(mods):
    def run(h):
        for m in mods:
            h = m(h)
        return h

    return run


def checkpointed_forward(blocks, x, segments):
    step = math.ceil(len(blocks) / segments)
    h = x
    for a in range(0, len(blocks), step):
        h = checkpoint(_make(list(blocks[a : a + step])), h, use_reentrant=False)
    return h
