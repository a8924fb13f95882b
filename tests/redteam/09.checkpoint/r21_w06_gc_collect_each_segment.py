# expect: fail gc.collect() (and empty_cache on a GPU) after each segment "to free the activations": a full host garbage collection per segment, paid every step for nothing
# hint: gc|collect|empty_cache|host|cost|slow
import functools
import gc

import torch
from torch.utils.checkpoint import checkpoint


def _run(part, h):
    for block in part:
        h = block(h)
    return h


def answer(blocks, x, segments):
    h = x
    for idx in torch.tensor_split(torch.arange(len(blocks)), segments):
        part = blocks[int(idx[0]) : int(idx[-1]) + 1]
        h = checkpoint(functools.partial(_run, part), h, use_reentrant=False)
        gc.collect()  # drop what the segment no longer needs
        if h.is_cuda:
            torch.cuda.empty_cache()
    return h
