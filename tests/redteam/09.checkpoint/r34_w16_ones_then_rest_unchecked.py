# expect: fail segments of one block each and the rest in the last, unchecked segment (10 in 3: 1, 1, 8): the prompt's "not 1, 1 and 8"
# hint: ceil|segment|longer|at most|1, 1|remainder|size
import functools

from torch.utils.checkpoint import checkpoint


def _chain(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x
    for i in range(segments - 1):
        h = checkpoint(functools.partial(_chain, blocks[i : i + 1]), h, use_reentrant=False)
    return _chain(blocks[segments - 1 :], h)  # the last one runs without a checkpoint


answer = checkpointed_forward
