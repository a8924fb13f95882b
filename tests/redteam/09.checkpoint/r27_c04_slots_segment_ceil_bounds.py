# expect: pass bounds ceil(i * n / segments) in integer arithmetic (10 in 3: 4, 3, 3), each segment a small __slots__ object holding a tuple of its blocks (bound when made), called by checkpoint with use_reentrant=False and preserve_rng_state=True spelled out
# hint: 
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint


class _Segment:
    __slots__ = ("mods",)

    def __init__(self, mods):
        self.mods = tuple(mods)

    def __call__(self, h):
        for mod in self.mods:
            h = mod(h)
        return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    edges = [-(-i * n // segments) for i in range(segments + 1)]  # ceil without floats
    h = x
    for start, stop in zip(edges[:-1], edges[1:]):
        if stop > start:
            h = checkpoint(
                _Segment(blocks[start:stop]), h, use_reentrant=False, preserve_rng_state=True
            )
    return h
