# expect: fail a lambda made in the loop reads start/end when backward calls it, after the loop: recomputes the last segment's blocks
# hint: late.?bind|closure|lambda|loop var|after the loop|bind|partial|wrong blocks|recomput\w* (the )?wrong
# Wrong: the chapter's first trap. Forward is right (the lambda runs at once), but backward
# reruns every segment with the last slice, so gradients (and the recompute log) are wrong.
import torch
from torch.utils.checkpoint import checkpoint


def _plain(mods, h):
    for m in mods:
        h = m(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        start, end = int(part[0]), int(part[-1]) + 1
        h = checkpoint(lambda t: _plain(blocks[start:end], t), h, use_reentrant=False)
    return h
