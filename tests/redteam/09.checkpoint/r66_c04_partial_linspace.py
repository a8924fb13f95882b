# expect: pass
# hint:
# Right: answer is a functools.partial of a general function; boundaries round(k * n / S)
# (in float64) give sizes that differ by at most one, in another order than tensor_split's
# (10 in 4: 2, 3, 3, 2), all of them checkpointed.
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _segment(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def _checkpointed(blocks, x, segments, *, use_reentrant, preserve_rng_state):
    n = len(blocks)
    cuts = torch.linspace(0, n, segments + 1, dtype=torch.float64).round().long().tolist()
    h = x
    for a, b in zip(cuts[:-1], cuts[1:]):
        h = checkpoint(
            functools.partial(_segment, list(blocks[a:b])),
            h,
            use_reentrant=use_reentrant,
            preserve_rng_state=preserve_rng_state,
        )
    return h


answer = functools.partial(_checkpointed, use_reentrant=False, preserve_rng_state=True)
