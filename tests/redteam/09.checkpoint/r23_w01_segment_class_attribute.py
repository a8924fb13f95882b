# expect: fail each segment object reads its blocks from a CLASS attribute that every new segment overwrites: backward recomputes the last segment's blocks for every segment (late binding through shared state), so gradients are wrong though the forward output is right
# hint: class attribute|shared|late|bind|last segment|after the loop|overwrit|same blocks
from torch.utils.checkpoint import checkpoint


class Segment:
    """A callable run of consecutive blocks, for checkpoint."""

    blocks = None  # the blocks this segment runs

    def __init__(self, blocks):
        Segment.blocks = blocks

    def __call__(self, h):
        for block in Segment.blocks:
            h = block(h)
        return h


def answer(blocks, x, segments):
    n = len(blocks)
    base, extra = divmod(n, segments)
    h, start = x, 0
    for s in range(segments):
        stop = start + base + (1 if s < extra else 0)  # the first `extra` segments get one more
        h = checkpoint(Segment(blocks[start:stop]), h, use_reentrant=False)
        start = stop
    return h
