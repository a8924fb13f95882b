# expect: pass a callable Segment class holding its blocks, functools.reduce over the segments
# hint: 
import functools, math
from torch.utils.checkpoint import checkpoint
class Segment:
    def __init__(self, mods):
        self.mods = list(mods)
    def __call__(self, h):
        for m in self.mods:
            h = m(h)
        return h
def answer(blocks, x, segments):
    n = len(blocks)
    cuts = [round(i * n / segments) for i in range(segments + 1)]  # sizes differ by at most one
    segs = [Segment(blocks[a:b]) for a, b in zip(cuts, cuts[1:])]
    return functools.reduce(lambda h, s: checkpoint(s, h, use_reentrant=False), segs, x)
