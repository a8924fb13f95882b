# expect: pass uses d2lgpu.scale.zero1_state_bytes on a meta module built from the shapes
# hint: 
import math

import torch
from torch import nn

from d2lgpu.scale import zero1_state_bytes


class _Shapes(nn.Module):
    def __init__(self, shapes):
        super().__init__()
        self.tensors = nn.ParameterList([nn.Parameter(torch.empty(s)) for s in shapes])


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    shapes = [tuple(s) for s in shapes]
    psi = sum(math.prod(s) for s in shapes)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + 4 * len(shapes)}
    if plan == "zero1":
        per_rank = zero1_state_bytes(lambda: _Shapes(shapes), world_size)
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": per_rank[0]}
    if plan == "fsdp2":
        rows = [math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes]
        return {"params": 4 * sum(rows), "grads": 4 * sum(rows),
                "optimizer": 8 * sum(rows) + 4 * len(shapes)}
    raise ValueError(f"plan must be ddp, zero1 or fsdp2, got {plan!r}")


answer = predict
