# expect: fail floor-sized segments with the remainder in the last one, and that long last segment checkpointed too (11 in 4: 2,2,2,5 all recomputed)
# hint: remainder|longer than|too long|ceil|segment.{0,20}(size|length|long)|blocks at once|recomput\w* \d+ blocks
import functools

from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    size = len(blocks) // segments  # as checkpoint_sequential: the last segment takes the rest
    h = x
    for i in range(segments):
        start = i * size
        end = len(blocks) if i == segments - 1 else start + size
        h = checkpoint(functools.partial(_run, blocks[start:end]), h, use_reentrant=False)
    return h


answer = checkpointed_forward
