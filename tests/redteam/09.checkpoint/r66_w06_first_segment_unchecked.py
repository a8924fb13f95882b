# expect: fail leaves the FIRST segment unchecked instead of the last, so its activations stay alive while backward recomputes the last segment
# hint: first segment|unchecked|without (a )?checkpoint|alive|at once|live|two segments|more than one segment|peak|last segment
# Wrong: the saved bytes still fit "inputs plus one segment's activations", but the first
# segment's activations live through the whole backward, beside each recomputed segment's;
# the prompt allows only the last segment to run without a checkpoint.
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    h = x
    parts = torch.tensor_split(torch.arange(len(blocks)), segments)
    for k, part in enumerate(parts):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        if k == 0:  # the input is data: nothing to gain from recomputing from it
            h = segment(h)
        else:
            h = checkpoint(segment, h, use_reentrant=False)
    return h
