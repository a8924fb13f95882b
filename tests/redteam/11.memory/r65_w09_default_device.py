# expect: fail sets torch's default device to "meta" to size the shards and never puts it back (a process-wide setting left changed)
# hint: default.?device|set_default_device|meta|process.?wide|put back|restore|left (it )?changed|setting
# Wrong: the numbers are right, but the exercise says to put back any process-wide setting
# you change; every tensor the caller makes afterwards lands on the meta device.
import math

import torch


def answer(shapes, plan, world_size):
    torch.set_default_device("meta")  # shapes without storage, as chapter 11 builds models
    tensors = [torch.empty(tuple(s)) for s in shapes]
    numels = [t.numel() for t in tensors]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        held = [0] * world_size
        mine = []
        for numel in sorted(numels, reverse=True):
            rank = held.index(min(held))
            held[rank] += numel
            if rank == 0:
                mine.append(numel)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(t.chunk(world_size, dim=0)[0].numel() for t in tensors)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(plan)
