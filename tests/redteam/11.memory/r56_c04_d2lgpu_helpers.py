# expect: pass leans on d2lgpu's own helpers: formula_bytes for DDP's whole state and for ZeRO-1's parameters and gradients, zero1_state_bytes on a meta module holding the shapes for ZeRO-1's rank 0; FSDP2's padded shards by hand
# hint:
import math

import torch
from torch import nn

from d2lgpu.scale import formula_bytes, zero1_state_bytes


class _Shapes(nn.Module):
    """A module whose parameters have the given shapes, in order (built on meta by the helper)."""

    def __init__(self, shapes):
        super().__init__()
        for i, shape in enumerate(shapes):
            self.register_parameter(f"w{i}", nn.Parameter(torch.empty(tuple(shape))))


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    shapes = [tuple(s) for s in shapes]
    psi = sum(math.prod(s) for s in shapes)
    if plan == "ddp":
        even = formula_bytes(psi, "ddp", world_size)
        return {
            "params": int(even["params"]),
            "grads": int(even["grads"]),
            "optimizer": int(even["optimizer"]) + 4 * len(shapes),  # + Adam's step counters
        }
    if plan == "zero1":
        even = formula_bytes(psi, "zero1", world_size)
        ranks = zero1_state_bytes(lambda: _Shapes(shapes), world_size)
        return {"params": int(even["params"]), "grads": int(even["grads"]), "optimizer": ranks[0]}
    if plan == "fsdp2":
        kept = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * kept, "grads": 4 * kept, "optimizer": 8 * kept + 4 * len(shapes)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
