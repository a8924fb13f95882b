# expect: pass asks d2lgpu.scale.zero1_state_bytes (ZeroRedundancyOptimizer's own partition, on meta) for ZeRO-1's rank 0, arithmetic for the rest
# hint: 
# name: predict
import math

import torch
from torch import nn

from d2lgpu.scale import zero1_state_bytes


class _Shapes(nn.Module):
    """A module whose parameters have the given shapes, in that order."""

    def __init__(self, shapes):
        super().__init__()
        self.tensors = nn.ParameterList(nn.Parameter(torch.empty(s)) for s in shapes)


def predict(shapes, plan, world_size):
    shapes = [tuple(s) for s in shapes]
    total = sum(math.prod(s) for s in shapes)
    if plan == "fsdp2":
        local = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    if plan == "zero1":
        rank0 = zero1_state_bytes(lambda: _Shapes(shapes), world_size)[0]
        return {"params": 4 * total, "grads": 4 * total, "optimizer": rank0}
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    raise ValueError(plan)
