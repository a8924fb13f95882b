# expect: pass nn.Sequential per segment from tensor_split of indices, last segment left unchecked
# hint:
# name: checkpointed_forward
import torch
from torch import nn
from torch.utils.checkpoint import checkpoint


def checkpointed_forward(blocks, x, segments):
    pieces = [p for p in torch.tensor_split(torch.arange(len(blocks)), segments) if len(p)]
    # nn.Sequential built once per segment: it holds its own blocks, whatever the loop does next
    modules = [nn.Sequential(*(blocks[int(i)] for i in p)) for p in pieces]
    h = x
    for seg in modules[:-1]:
        h = checkpoint(seg, h, use_reentrant=False)
    return modules[-1](h)
