# expect: fail floor-step segments with the remainder in an extra checkpointed segment (10 in 3: 3,3,3,1 = 4 segments)
# hint: segment|many|exactly
import functools
from torch.utils.checkpoint import checkpoint
def run(mods, h):
    for m in mods:
        h = m(h)
    return h
def answer(blocks, x, segments):
    step = max(1, len(blocks) // segments)
    h = x
    for a in range(0, len(blocks), step):
        h = checkpoint(functools.partial(run, blocks[a:a + step]), h, use_reentrant=False)
    return h
