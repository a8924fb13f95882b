# expect: fail steps through the blocks by len(blocks) // segments, which makes more than `segments` segments when it does not divide (10 in 3: 3, 3, 3, 1)
# hint: (more|too many|extra|number of|exactly|expected) .{0,30}segments|segments? (count|number)|3, 3, 3, 1|floor|//|step|recomput\w* \d+ segments|recomputed \d+ segment\(s\)
# name: checkpointed_forward
import functools

from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    size = max(1, len(blocks) // segments)
    h = x
    for start in range(0, len(blocks), size):
        h = checkpoint(
            functools.partial(_run, blocks[start : start + size]), h, use_reentrant=False
        )
    return h
