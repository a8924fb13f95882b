# expect: fail checkpoints with use_reentrant=True, the old implementation: with an input that needs no gradient the parameters get none
# hint: reentrant|use_reentrant|no grad(ient)?|missing grad|none
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
    for part in torch.tensor_split(torch.arange(n), min(segments, n)):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=True)
    return h


answer = checkpointed_forward
