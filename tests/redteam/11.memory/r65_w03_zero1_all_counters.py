# expect: fail ZeRO-1 counts a 4-byte Adam step counter for every tensor, not only the tensors rank 0 updates
# hint: step counter|counter|per tensor (it|rank 0) (updates|owns)|4.?b(yte)?s? per tensor|step
# Wrong: Adam keeps a step counter per tensor it updates; under ZeRO-1 rank 0 updates only
# the tensors dealt to it, so only those counters are on rank 0.
import math


def answer(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    counters = 4 * len(shapes)  # Adam's step counters
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + counters}
    if plan == "zero1":
        held = [0] * world_size
        mine = 0
        for numel in sorted(numels, reverse=True):
            rank = held.index(min(held))
            held[rank] += numel
            if rank == 0:
                mine += numel
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * mine + counters}
    if plan == "fsdp2":
        local = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}
    raise ValueError(plan)
