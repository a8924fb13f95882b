# expect: fail wraps the segmented forward in one more, outer checkpoint: backward recomputes the whole model as one, then each segment again (each block 3 times)
# hint: whole model|as one|nested|outer|three|3 times|twice|more than once|extra (forward|recomput)|forward (calls|passes)|recomput\w* .{0,20}(all|every|whole)
# Wrong: "checkpoint the whole thing too, so nothing at all is kept": values and gradients are
# right, but backward reruns every block twice more, the cost checkpointing should not add.
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _plain(mods, h):
    for m in mods:
        h = m(h)
    return h


def _segmented(blocks, segments, h):
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(_plain, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=False)
    return h


def answer(blocks, x, segments):
    return checkpoint(functools.partial(_segmented, blocks, segments), x, use_reentrant=False)
