# expect: fail element counts kept in an int32 tensor: 8 x numel of a Llama-3-8B-sized embedding overflows 32 bits and wraps silently
# hint: overflow|int32|32.?bit|wrap|large|8b|integer|int64|python int
# Wrong: the prompt warns that a rank's bytes of an 8B-sized model do not fit 32 bits;
# torch's int32 multiply wraps without error (the sum is int64, too late).
import math

import torch


def answer(shapes, plan, world_size):
    numels = torch.tensor([math.prod(s) for s in shapes], dtype=torch.int32)
    total = numels.sum().item()
    if plan == "ddp":
        return {
            "params": int((4 * numels).sum()),
            "grads": int((4 * numels).sum()),
            "optimizer": int((8 * numels).sum()) + 4 * len(shapes),
        }
    if plan == "zero1":
        held = torch.zeros(world_size, dtype=torch.int64)
        mine = torch.zeros(len(shapes), dtype=torch.bool)
        order = torch.argsort(numels, descending=True, stable=True)
        for i in order.tolist():
            rank = int(torch.argmin(held))  # argmin returns the first (lowest) rank on a tie
            held[rank] += int(numels[i])
            mine[i] = rank == 0
        return {
            "params": 4 * total,
            "grads": 4 * total,
            "optimizer": int((8 * numels[mine]).sum()) + 4 * int(mine.sum()),
        }
    if plan == "fsdp2":
        rows = torch.tensor([s[0] for s in shapes], dtype=torch.int32)
        rest = torch.tensor([math.prod(s[1:]) for s in shapes], dtype=torch.int32)
        local = (rows + world_size - 1) // world_size * rest
        return {
            "params": int((4 * local).sum()),
            "grads": int((4 * local).sum()),
            "optimizer": int((8 * local).sum()) + 4 * len(shapes),
        }
    raise ValueError(plan)
