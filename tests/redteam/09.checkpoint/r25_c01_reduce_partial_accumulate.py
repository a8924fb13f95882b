# expect: pass segment bounds from itertools.accumulate of divmod sizes; each segment is functools.partial(functools.reduce, apply, its blocks), called by checkpoint with the input as reduce's initial value; every segment checkpointed
# hint: 
# name: checkpointed_forward
import functools
import itertools

from torch.utils.checkpoint import checkpoint


def _apply(h, block):
    return block(h)


def checkpointed_forward(blocks, x, segments):
    q, r = divmod(len(blocks), segments)
    sizes = [q + 1] * r + [q] * (segments - r)
    bounds = list(itertools.accumulate(sizes, initial=0))
    h = x
    for start, stop in itertools.pairwise(bounds):
        if stop > start:
            run = functools.partial(functools.reduce, _apply, tuple(blocks[start:stop]))
            h = checkpoint(run, h, use_reentrant=False)
    return h
