# expect: fail the whole call runs inside torch.random.fork_rng: the global random state is restored afterwards, so every call draws the same dropout masks (the caller's RNG never advances)
# hint: fork_rng|rng|random|state|seed|same mask|dropout|advance
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    devices = [x.device.index or 0] if x.is_cuda else []
    with torch.random.fork_rng(devices=devices):  # keep the random draws reproducible
        h = x
        for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
            part = blocks[int(idx[0]) : int(idx[-1]) + 1]
            h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
    return h
