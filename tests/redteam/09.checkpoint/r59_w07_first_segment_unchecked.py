# expect: fail leaves the FIRST segment without a checkpoint instead of the last: its activations stay alive through the whole backward, so two segments' activations are alive when the next one is recomputed
# hint: first segment|unchecked|without (a )?checkpoint|last segment|alive|peak|activations
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    n = len(blocks)
    if n == 0:
        return x
    h = x
    parts = torch.tensor_split(torch.arange(n), min(segments, n))
    for k, part in enumerate(parts):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        if k == 0:
            h = segment(h)  # one segment may run plain: take the first
        else:
            h = checkpoint(segment, h, use_reentrant=False)
    return h


answer = checkpointed_forward
