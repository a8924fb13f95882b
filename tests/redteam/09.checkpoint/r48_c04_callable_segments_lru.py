# expect: pass callable Segment objects, divmod sizes (larger first), bounds memoized per (n, segments) with lru_cache (ints only)
# hint:
import functools

from torch.utils.checkpoint import checkpoint


@functools.lru_cache(maxsize=None)
def _bounds(n, segments):
    size, extra = divmod(n, segments)
    out, start = [], 0
    for i in range(segments):
        stop = start + size + (1 if i < extra else 0)
        if stop > start:
            out.append((start, stop))
        start = stop
    return tuple(out)


class Segment:
    """Holds its own blocks: backward's rerun finds the same ones."""

    def __init__(self, blocks):
        self.blocks = tuple(blocks)

    def __call__(self, h):
        for block in self.blocks:
            h = block(h)
        return h


def checkpointed_forward(blocks, x, segments):
    segs = [Segment(blocks[a:b]) for a, b in _bounds(len(blocks), segments)]
    h = x
    for seg in segs:
        h = checkpoint(seg, h, use_reentrant=False)
    return h


answer = checkpointed_forward
