# expect: pass a small callable class per segment, floor boundaries (i * n) // segments (small segments first), every segment checkpointed
# hint:
import torch.utils.checkpoint as ckpt


class _Segment:
    """Consecutive blocks, fixed when the segment is made."""

    def __init__(self, mods):
        self.mods = tuple(mods)

    def __call__(self, h):
        for m in self.mods:
            h = m(h)
        return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    n = len(blocks)
    bounds = [(i * n) // segments for i in range(segments + 1)]  # 10 in 3: 3, 3, 4
    h = x
    for start, end in zip(bounds[:-1], bounds[1:]):
        segment = _Segment(blocks[k] for k in range(start, end))
        h = ckpt.checkpoint(
            segment, h, use_reentrant=False, preserve_rng_state=True, determinism_check="default"
        )
    return h


answer = checkpointed_forward
