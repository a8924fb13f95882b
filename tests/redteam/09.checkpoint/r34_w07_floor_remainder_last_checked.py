# expect: fail floor-sized segments with the remainder in the last one, which is checkpointed too: 11 in 4 -> 2,2,2,5 all recomputed (longer than ceil)
# hint: ceil|longer|segment|at most|size
import functools

from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    size = len(blocks) // segments
    h = x
    for i in range(segments):
        stop = len(blocks) if i == segments - 1 else (i + 1) * size
        seg = functools.partial(_chain, blocks[i * size : stop])
        h = checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
