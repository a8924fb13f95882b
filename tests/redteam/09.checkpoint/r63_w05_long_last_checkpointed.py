# expect: fail floor-sized segments with the remainder on the last, which is also checkpointed: backward recomputes a segment longer than ceil(N/S) (11 in 4: 2, 2, 2, 5)
# hint: longer than|too long|too many blocks|ceil|segment.{0,20}(size|length|blocks)|at most|remainder|uneven|\b5 blocks
# Wrong: checkpoint_sequential's split is allowed only because its long last segment runs
# unchecked; checkpointing it makes backward rerun (and hold) 5 blocks at once. Exact for 16 in 4.
import functools

from torch.utils.checkpoint import checkpoint


def _plain(mods, h):
    for m in mods:
        h = m(h)
    return h


def answer(blocks, x, segments):
    n = len(blocks)
    size = n // segments
    h = x
    for k in range(segments):
        start = k * size
        end = n if k == segments - 1 else start + size
        h = checkpoint(functools.partial(_plain, blocks[start:end]), h, use_reentrant=False)
    return h
