# expect: fail uses checkpoint_sequential's split (len // segments each, the remainder in the last) but checkpoints the last segment too, so backward recomputes a segment longer than ceil(len/segments) (11 in 4: 2, 2, 2, 5)
# hint: longer|too long|ceil|remainder|last segment|at most|uneven|(segment|split) sizes?|differ by|tensor_split|recomput\w* .{0,30}(blocks|segment)
# name: checkpointed_forward
import functools

from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    size = len(blocks) // segments
    h = x
    for k in range(segments):
        start = k * size
        end = len(blocks) if k == segments - 1 else start + size
        h = checkpoint(functools.partial(_run, blocks[start:end]), h, use_reentrant=False)
    return h
