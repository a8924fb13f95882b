# expect: pass segment sizes from divmod (the first r segments one block longer, as tensor_split gives), each segment a small callable class holding its own tuple of blocks, every segment checkpointed
# hint: 
# name: checkpointed_forward
from torch.utils.checkpoint import checkpoint


class _Segment:
    """Consecutive blocks, bound when the segment is made."""

    def __init__(self, modules):
        self.modules = tuple(modules)

    def __call__(self, h):
        for module in self.modules:
            h = module(h)
        return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    modules = list(blocks)
    size, extra = divmod(len(modules), segments)
    start, h = 0, x
    for s in range(segments):
        stop = start + size + (1 if s < extra else 0)
        h = checkpoint(
            _Segment(modules[start:stop]), h, use_reentrant=False, preserve_rng_state=True
        )
        start = stop
    return h
