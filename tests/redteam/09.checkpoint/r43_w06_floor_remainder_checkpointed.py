# expect: fail copies checkpoint_sequential's floor-sized split but checkpoints the last segment too, so its remainder (11 blocks in 4: 2, 2, 2, 5) is recomputed as one segment longer than ceil(len(blocks) / segments)
# hint: segment|longer|ceil|remainder|last
# name: checkpointed_forward
import functools

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    size = len(blocks) // segments
    h = x
    for s in range(segments):
        start = s * size
        stop = len(blocks) if s == segments - 1 else start + size
        h = checkpoint(functools.partial(_run, blocks[start:stop]), h, use_reentrant=False)
    return h
