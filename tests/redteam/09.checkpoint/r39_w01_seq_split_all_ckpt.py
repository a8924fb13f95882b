# expect: fail checkpoint_sequential's split by hand but with the long last segment checkpointed too (10 in 4: 2,2,2,4 all checkpointed; the exception is only for an unchecked last one)
# hint: segment|long|ceil
import functools
from torch.utils.checkpoint import checkpoint
def run(mods, h):
    for m in mods:
        h = m(h)
    return h
def answer(blocks, x, segments):
    n = len(blocks); size = n // segments
    starts = [i * size for i in range(segments)] + [n]
    h = x
    for a, b in zip(starts, starts[1:]):
        h = checkpoint(functools.partial(run, blocks[a:b]), h, use_reentrant=False)
    return h
