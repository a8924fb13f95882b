# expect: fail a dry run under no_grad first (to check shapes): every block runs twice in the forward pass, and dropout draws twice
# hint: once|twice|forward|block|call|random|dropout

import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    with torch.no_grad():  # cheap sanity pass: keeps nothing, catches shape errors before checkpointing
        expected_shape = _run(blocks, x).shape
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
    assert h.shape == expected_shape
    return h

answer = checkpointed_forward
