# expect: fail ZeRO-1's tensors are sorted by their first dimension (rows), not by their number of elements
# hint: sort|order|largest first|by size|number of elements|numel|element count
# Wrong: "largest first" means by elements; sorting by shape[0] ties a (768,) norm gain with
# (768, 768) and (768, 2048) matrices, and puts the first (module order) ahead of the others.
import math


def answer(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        held = [0] * world_size
        mine = []
        for shape in sorted(shapes, key=lambda s: s[0], reverse=True):
            numel = math.prod(shape)
            rank = held.index(min(held))
            held[rank] += numel
            if rank == 0:
                mine.append(numel)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(plan)
