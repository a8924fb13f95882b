# expect: fail reads `segments` as the number of blocks per segment: right only when len(blocks) == segments ** 2 (16 in 4)
# hint: segments?|sizes?|number of|ceil|recomput
import functools
from torch.utils.checkpoint import checkpoint
def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h
def answer(blocks, x, segments):
    h = x
    for start in range(0, len(blocks), segments):
        seg = functools.partial(run, blocks[start : start + segments])
        h = checkpoint(seg, h, use_reentrant=False)
    return h
