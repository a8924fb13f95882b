# expect: fail starts from x.detach().requires_grad_() (to give the checkpoint an input that needs grad): x's own gradient is cut off
# hint: input.{0,4}s? grad|\bx.{0,4}s? grad|gradient of (the )?(input|x)|input|detach

import functools

import torch
from torch.utils.checkpoint import checkpoint


def _run(seg, h):
    for block in seg:
        h = block(h)
    return h


def checkpointed_forward(blocks, x, segments):
    h = x.detach().requires_grad_()  # checkpoint wants an input that requires grad
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        h = checkpoint(functools.partial(_run, blocks[int(part[0]) : int(part[-1]) + 1]), h, use_reentrant=False)
    return h

answer = checkpointed_forward
