# expect: fail steps through the blocks ceil(len(blocks) / segments) at a time, which makes fewer segments than asked when that does not come out even (9 blocks in 4 as 3, 3, 3)
# hint: segments|number|count|exactly|ceil
# name: checkpointed_forward
import functools
import math

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    step = math.ceil(len(blocks) / segments)
    h = x
    for start in range(0, len(blocks), step):
        segment = functools.partial(_run, blocks[start : start + step])
        h = checkpoint(segment, h, use_reentrant=False)
    return h
