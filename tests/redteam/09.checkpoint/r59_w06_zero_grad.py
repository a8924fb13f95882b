# expect: fail zeroes the blocks' gradients before the forward ("start clean"), wiping the gradients the caller had already accumulated in .grad
# hint: zero|\.grad|accumulat|existing grad|already|leave.{0,20}alone
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
    blocks.zero_grad()
    h = x
    for part in torch.tensor_split(torch.arange(n), min(segments, n)):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    return h


answer = checkpointed_forward
