# expect: fail runs the whole forward inside torch.random.fork_rng: output right, but the caller's RNG never advances, so every call draws the same dropout masks
# hint: random|rng|generator|state|dropout|draw|changed

import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    # keep the process as found: the dropout draws happen on a forked RNG
    with torch.random.fork_rng(devices=[x.device] if x.is_cuda else []):
        h = x
        for part in torch.tensor_split(torch.arange(len(blocks)), segments):
            h = checkpoint(functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
    return h

answer = checkpointed_forward
