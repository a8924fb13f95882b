# expect: pass boundaries k*n/S rounded half up (sizes differ by at most one, e.g. 3, 4, 3), cached per (n, S) with lru_cache; each segment an nn.Sequential sharing the blocks, all checkpointed
# hint:
import functools

from torch import nn
from torch.utils.checkpoint import checkpoint


@functools.lru_cache(maxsize=None)
def _bounds(n, segments):
    """S + 1 boundaries whose gaps differ by at most one (only integers are cached):
    k * n / S rounded half up, in integers."""
    return tuple((2 * k * n + segments) // (2 * segments) for k in range(segments + 1))


def checkpointed_forward(blocks, x, segments):
    bounds = _bounds(len(blocks), segments)
    # new Sequentials every call, holding this call's blocks (the modules are shared, not copied)
    stages = [nn.Sequential(*blocks[a:b]) for a, b in zip(bounds, bounds[1:])]
    h = x
    for stage in stages:
        h = checkpoint(stage, h, use_reentrant=False, preserve_rng_state=True)
    return h


answer = checkpointed_forward
