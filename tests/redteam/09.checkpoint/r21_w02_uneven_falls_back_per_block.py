# expect: fail when len(blocks) is not a multiple of segments it checkpoints every block alone instead of making segments of sizes differing by one
# hint: each block|every block|alone|per block|not a multiple|uneven|remainder|segments
import functools

from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    n = len(blocks)
    if n % segments:
        # segments of unequal size would unbalance the recomputation: checkpoint block by block
        size = 1
    else:
        size = n // segments
    h = x
    for start in range(0, n, size):
        h = checkpoint(functools.partial(_run, blocks[start : start + size]), h, use_reentrant=False)
    return h
