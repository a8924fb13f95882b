# expect: fail checkpoints each block again inside its checkpointed segment, so backward recomputes every block twice (segment, then block alone)
# hint: nest|each block (alone|separately|individually)|per.?block|block alone|twice|two recomput|recomput.*(more|again|extra|twice)|backward.*(calls?|forwards?).*(more|extra)
# Wrong: right values and bytes, but backward reruns each segment and then each block alone
# (twice the extra forwards); the prompt wants segments recomputed, not each block alone.
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg_blocks, h):
    for block in seg_blocks:  # inside a segment, each block's own checkpoint: a lower peak
        h = checkpoint(block, h, use_reentrant=False)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    return h
