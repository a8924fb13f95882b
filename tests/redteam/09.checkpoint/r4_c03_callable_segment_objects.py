# expect: pass
# hint: 
import itertools
import torch
class Segment:
    """A callable that holds its own list of blocks."""
    def __init__(self, blocks):
        self.blocks = list(blocks)
    def __call__(self, h):
        for block in self.blocks:
            h = block(h)
        return h
def answer(blocks, x, segments):
    n = len(blocks)
    sizes = [len(p) for p in torch.tensor_split(torch.empty(n), segments)]
    bounds = [0, *itertools.accumulate(sizes)]
    h = x
    for a, b in itertools.pairwise(bounds):
        h = torch.utils.checkpoint.checkpoint(Segment(blocks[a:b]), h, use_reentrant=False)
    return h
