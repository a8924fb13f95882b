# expect: fail floor-sized segments with the remainder in a last segment that is still checkpointed (11 in 4: 2, 2, 2, 5, all checkpointed)
# hint: ceil|longer|too long|at most|size|remainder|uneven|unchecked
import functools

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    n = len(blocks)
    size = n // segments  # as checkpoint_sequential cuts them
    h = x
    for i in range(segments):
        start = i * size
        end = n if i == segments - 1 else start + size  # the last takes what is left
        seg = functools.partial(_run, [blocks[k] for k in range(start, end)])
        h = checkpoint(seg, h, use_reentrant=False)  # every segment checkpointed, to save most
    return h


answer = checkpointed_forward
