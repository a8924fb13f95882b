# expect: pass
# hint:
# Right: the chapter's own zero1_state_bytes reads ZeroRedundancyOptimizer's partition of
# meta parameters with these shapes (the prompt forbids no helper for 11.1); ints throughout.
import math
import os

import torch
from torch import nn

from d2lgpu.scale import zero1_state_bytes


class _Shapes(nn.Module):
    def __init__(self, shapes):
        super().__init__()
        self.weights = nn.ParameterList(nn.Parameter(torch.empty(tuple(s))) for s in shapes)


def answer(shapes, plan, world_size):
    shapes = [tuple(s) for s in shapes]
    total = sum(math.prod(s) for s in shapes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        saved = dict(os.environ)  # torch sets TORCHINDUCTOR_CACHE_DIR on first use: put it back
        try:
            rank0 = zero1_state_bytes(lambda: _Shapes(shapes), world_size)[0]
        finally:
            for name in set(os.environ) - set(saved):
                del os.environ[name]
            os.environ.update(saved)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": int(rank0)}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(f"unknown plan {plan!r}")
