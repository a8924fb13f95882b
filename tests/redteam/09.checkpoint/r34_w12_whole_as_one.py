# expect: fail checkpoints the whole stack as one segment when segments is small relative to blocks (ignores segments unless it divides evenly)
# hint: segment|whole|one
import functools

from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    if n % segments:  # uneven: fall back to one checkpoint over everything
        return checkpoint(functools.partial(_chain, list(blocks)), x, use_reentrant=False)
    size = n // segments
    h = x
    for start in range(0, n, size):
        h = checkpoint(functools.partial(_chain, blocks[start : start + size]), h, use_reentrant=False)
    return h


answer = checkpointed_forward
