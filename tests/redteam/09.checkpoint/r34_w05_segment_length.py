# expect: fail reads `segments` as the number of blocks per segment, not the number of segments
# hint: segment
import functools

from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for start in range(0, len(blocks), segments):
        seg = functools.partial(_chain, blocks[start : start + segments])
        h = checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
