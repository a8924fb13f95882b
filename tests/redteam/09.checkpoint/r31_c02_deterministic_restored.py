# expect: pass
# hint:
import functools
from contextlib import contextmanager

import torch
from torch.utils.checkpoint import checkpoint


@contextmanager
def _deterministic():
    before = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    torch.use_deterministic_algorithms(True)
    try:
        yield
    finally:
        torch.use_deterministic_algorithms(before, warn_only=warn_only)


def _run(segment, h):
    for block in segment:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    with _deterministic():
        h = x
        for part in torch.tensor_split(torch.arange(len(blocks)), segments):
            if len(part) == 0:
                continue
            segment = [blocks[int(i)] for i in part]
            h = checkpoint(functools.partial(_run, segment), h, use_reentrant=False)
        return h


answer = checkpointed_forward
