# expect: pass segments built first as a list of nn.Sequential (divmod sizes, remainder first); functools.reduce threads h through checkpoint(seg, h, use_reentrant=False) for all but the last segment, which runs plain, as checkpoint_sequential does (allowed: its activations are the one segment's that backward needs first)
# hint: 
# name: checkpointed_forward
import functools

from torch import nn
from torch.utils.checkpoint import checkpoint


def _checkpointed(h, seg):
    return checkpoint(seg, h, use_reentrant=False)


def checkpointed_forward(blocks, x, segments):
    q, r = divmod(len(blocks), segments)
    sizes = [q + 1] * r + [q] * (segments - r)
    segs, start = [], 0
    for size in sizes:
        if size:
            segs.append(nn.Sequential(*blocks[start : start + size]))
        start += size
    *checked, last = segs
    h = functools.reduce(_checkpointed, checked, x)
    return last(h)
