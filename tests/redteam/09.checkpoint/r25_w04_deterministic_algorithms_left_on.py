# expect: fail turns on torch.use_deterministic_algorithms(True) so the recomputation "matches" the forward, and leaves that process-wide switch on after it returns (it does nothing for random numbers; checkpoint's RNG state does that)
# hint: deterministic|use_deterministic_algorithms|global|process|switch|flag|leaves?
# name: checkpointed_forward
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(blocks, h):
    for block in blocks:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    torch.use_deterministic_algorithms(True)  # the recomputation must give the forward's numbers
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        if len(part) == 0:
            continue
        start, stop = int(part[0]), int(part[-1]) + 1
        h = checkpoint(functools.partial(_run, blocks[start:stop]), h, use_reentrant=False)
    return h
