# expect: fail raises torch.set_num_threads to os.cpu_count() for the recomputation and never restores it
# hint: thread
import functools
import os

import torch
from torch.utils.checkpoint import checkpoint


def _run(segment, h):
    for block in segment:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    """The blocks in order on x, in `segments` checkpointed segments."""
    torch.set_num_threads(os.cpu_count() or 1)  # recomputation is extra work: use every core
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        if len(part) == 0:
            continue
        segment = [blocks[int(i)] for i in part]
        h = checkpoint(functools.partial(_run, segment), h, use_reentrant=False)
    return h


answer = checkpointed_forward
