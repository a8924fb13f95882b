# expect: fail use_reentrant=True, with the input detached and made to require grad so that the parameters get gradients: the prompt asks for use_reentrant=False, and the gradient no longer reaches x
# hint: use_reentrant|reentrant|input|x.*grad|detach
import functools
import math
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def run(blocks, h):
    for b in blocks:
        h = b(h)
    return h


def answer(blocks, x, segments):
    h = x.detach().requires_grad_()
    for part in torch.tensor_split(torch.arange(len(blocks)), segments):
        seg = functools.partial(run, blocks[int(part[0]) : int(part[-1]) + 1])
        h = checkpoint(seg, h, use_reentrant=True)
    return h
