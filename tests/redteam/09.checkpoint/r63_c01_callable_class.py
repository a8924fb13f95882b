# expect: pass
# hint:
# Right: a callable class instance; segments from torch.tensor_split of the block indices, each
# bound to its own slice via a bound method of a small per-segment object, all checkpointed.
import torch
from torch.utils.checkpoint import checkpoint


class _Segment:
    """Consecutive blocks, applied in order; binds its blocks when it is made."""

    def __init__(self, mods):
        self.mods = list(mods)

    def run(self, h):
        for m in self.mods:
            h = m(h)
        return h


class CheckpointedForward:
    def __call__(self, blocks, x, segments):
        h = x
        for part in torch.tensor_split(torch.arange(len(blocks)), segments):
            seg = _Segment(blocks[i] for i in part.tolist())
            h = checkpoint(seg.run, h, use_reentrant=False, preserve_rng_state=True)
        return h


answer = CheckpointedForward()
