# expect: fail functools.partial binds a list that the loop then clears and refills, so backward recomputes the wrong blocks
# hint: bind|bound|closure|late|after the loop|loop|partial|lambda|wrong blocks|recomput
import functools
import math

from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    n = len(blocks)
    bounds = [math.floor(i * n / segments) for i in range(segments + 1)]
    h = x
    current = []  # reused for every segment
    for s in range(segments):
        current.clear()
        current.extend(blocks[k] for k in range(bounds[s], bounds[s + 1]))
        # partial, not a lambda, so the segment is fixed when it is made (chapter 9.4)
        h = checkpoint(functools.partial(_run, current), h, use_reentrant=False)
    return h


answer = checkpointed_forward
