# expect: fail starts from x.detach().requires_grad_() (so that the checkpoint has an input needing a gradient): the graph is cut from the caller's x, which gets no gradient
# hint: detach|input.{0,20}grad|x\.grad|gradient of (the )?input|graph|cut
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
    h = x.detach().requires_grad_()
    for part in torch.tensor_split(torch.arange(n), min(segments, n)):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    return h


answer = checkpointed_forward
