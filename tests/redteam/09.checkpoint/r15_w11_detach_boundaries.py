# expect: fail detaches each segment's input (as between pipeline stages): gradients stop at segment boundaries
# hint: detach|gradient.*(flow|stop|boundar|earlier|first|missing|none|zero)|graph.*(cut|broken)|boundar
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        # each segment starts from a leaf, so checkpoint keeps only that input
        h = checkpoint(segment, h.detach().requires_grad_(), use_reentrant=False)
    return h


answer = checkpointed_forward
