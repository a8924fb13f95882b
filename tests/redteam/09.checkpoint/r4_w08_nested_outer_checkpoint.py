# expect: fail wraps the segmented forward in one more outer checkpoint "to keep even less": backward first recomputes the whole model as one, then each segment, so every block runs three times
# hint: outer|whole model|nested|around the whole|three times
import functools
import torch
from torch.utils.checkpoint import checkpoint
def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h
def segmented(blocks, segments, h):
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
    return h
def answer(blocks, x, segments):
    return checkpoint(functools.partial(segmented, blocks, segments), x, use_reentrant=False)
