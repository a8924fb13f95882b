# expect: fail cuts the first segments - 1 segments one block each and puts every other block in the last, checkpointed segment (10 in 3 as 1, 1, 8), longer than ceil(len(blocks) / segments)
# hint: segment|longer|ceil|size|even|balanc
# name: checkpointed_forward
import functools

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    cuts = [*range(segments), len(blocks)]  # one block per segment, the rest at the end
    h = x
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        h = checkpoint(functools.partial(_run, blocks[lo:hi]), h, use_reentrant=False)
    return h
