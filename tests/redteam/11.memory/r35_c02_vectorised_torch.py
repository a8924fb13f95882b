# expect: pass vectorised with torch integer tensors: a stable argsort for ZeRO-1's largest-first order, argmin (first minimum, the lowest rank) for the least-loaded rank, and ceil-division of the rows for FSDP2.
# hint:
# name: predict
import math

import torch


def predict(shapes, plan, world_size):
    n = world_size
    rows = torch.tensor([s[0] if len(s) else 1 for s in shapes], dtype=torch.int64)
    cols = torch.tensor([math.prod(s[1:]) for s in shapes], dtype=torch.int64)
    numel = rows * cols
    psi, tensors = int(numel.sum()), len(shapes)
    if plan == "fsdp2":
        local = int(((rows + n - 1) // n * cols).sum())  # ceil(rows / N) rows, padded
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * tensors}
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + 4 * tensors}
    if plan != "zero1":
        raise ValueError(f"unknown plan {plan!r}")
    order = torch.argsort(-numel, stable=True)  # largest first, equal sizes in module order
    load = torch.zeros(n, dtype=torch.int64)
    owner = torch.empty(tensors, dtype=torch.int64)
    for i in order.tolist():
        rank = int(torch.argmin(load))  # the first minimum: the lowest rank on a tie
        owner[i] = rank
        load[rank] += numel[i]
    mine = owner == 0
    return {"params": 4 * psi, "grads": 4 * psi,
            "optimizer": 8 * int(numel[mine].sum()) + 4 * int(mine.sum())}

answer = predict
