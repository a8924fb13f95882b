# expect: fail partial binds one list that the loop refills, so backward recomputes every segment with the last segment's blocks
# hint: late.?bind|closure|after the loop|loop.*(end|variable|last)|last segment|wrong blocks|recomput.*(wrong|other|different)|(list|container).*(reus|refill|mutat|shar)
# Wrong: functools.partial fixes the list object, not its contents; the list is cleared and
# refilled for each segment, so when backward calls the partials they all see the last blocks.
import functools

from torch.utils.checkpoint import checkpoint


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    n = len(blocks)
    base, extra = divmod(n, segments)
    current = []  # one buffer for the blocks of the segment being built
    segment = functools.partial(_run, current)
    h, start = x, 0
    for k in range(segments):
        size = base + (1 if k < extra else 0)
        current.clear()
        current.extend(blocks[start : start + size])
        h = checkpoint(segment, h, use_reentrant=False)
        start += size
    return h
