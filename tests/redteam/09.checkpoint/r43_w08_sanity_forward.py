# expect: fail first runs the blocks once under no_grad as a sanity check on the shape, so each block runs twice in the forward pass and, with dropout, draws random numbers the caller did not expect
# hint: once|twice|forward|extra|random|call
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(mods, h):
    for m in mods:
        h = m(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    with torch.no_grad():
        expected_shape = _run(blocks, x).shape  # cheap: no graph is built
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    assert h.shape == expected_shape
    return h
