# expect: pass reads ZeRO-1's deal from ZeroRedundancyOptimizer itself via the chapter's d2lgpu.scale.zero1_state_bytes on a meta-device module built from the shapes, and counts DDP and FSDP2 in a small per-tensor dataclass.
# hint:
# name: predict
import math
from dataclasses import dataclass

import torch
from torch import nn

from d2lgpu.scale import zero1_state_bytes


@dataclass(frozen=True)
class _Tensor:
    shape: tuple

    @property
    def numel(self):
        return math.prod(self.shape)

    def shard(self, n):
        """Elements of rank 0's FSDP2 shard: ceil(rows / n) rows (padded), every column."""
        return math.ceil(self.shape[0] / n) * math.prod(self.shape[1:])


def _module(shapes):
    model = nn.Module()
    model.weights = nn.ParameterList(nn.Parameter(torch.empty(s)) for s in shapes)
    return model


def predict(shapes, plan, world_size):
    tensors = [_Tensor(tuple(s)) for s in shapes]
    psi = sum(t.numel for t in tensors)
    counters = 4 * len(tensors)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + counters}
    if plan == "zero1":  # ZeroRedundancyOptimizer's own partition, read on the meta device
        state = zero1_state_bytes(lambda: _module([t.shape for t in tensors]), world_size)
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": state[0]}
    if plan == "fsdp2":
        local = sum(t.shard(world_size) for t in tensors)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}
    raise ValueError(f"unknown plan {plan!r}")

answer = predict
