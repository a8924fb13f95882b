"""What both of chapter 10's hand-built DDP checkers (:mod:`.ch10_ddp_by_hand`) share: the
steps and batch of a run, the global batch of a step, each rank's share of it, and the
gradients of a share.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

__all__ = ["BATCH", "SEED", "STEPS", "batch", "grads_of", "share"]

STEPS, BATCH, SEED = 3, 16, 5


def batch(step, features):
    gen = torch.Generator().manual_seed(200 + step)
    classes = 3 if features == 6 else 16
    return (torch.randn(BATCH, features, generator=gen),
            torch.randint(0, classes, (BATCH,), generator=gen))  # fmt: skip


def share(rank, world):
    return slice(rank * BATCH // world, (rank + 1) * BATCH // world)


def grads_of(model, x, y):
    loss = F.cross_entropy(model(x), y)
    return [g.detach() for g in torch.autograd.grad(loss, list(model.parameters()))]
