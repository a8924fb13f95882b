# expect: fail in eval mode runs the stack a second time under no_grad to self-check the output, so each block runs twice in the forward pass
# hint: once|twice|two forwards?|extra forward|forward (calls?|pass).*(more|twice|2)|ran more|no_grad|dry.?run|recomput
# Wrong: right values, but when no block is in training mode every block runs twice before
# backward (the prompt: each block runs once in the forward pass).
import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg_blocks, h):
    for block in seg_blocks:
        h = block(h)
    return h


def answer(blocks, x, segments):
    h = x
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        segment = functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(segment, h, use_reentrant=False)
    if not any(m.training for m in blocks.modules()):  # deterministic: check the segments
        with torch.no_grad():
            reference = _run(blocks, x)
        if not torch.allclose(h.detach(), reference, rtol=1e-4, atol=1e-6):
            raise RuntimeError("checkpointed segments differ from the plain forward")
    return h
