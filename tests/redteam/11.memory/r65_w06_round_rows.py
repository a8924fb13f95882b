# expect: fail FSDP2's shard rows are round(rows / N), not ceil(rows / N): wrong whenever the fraction is under a half (e.g. 1024 or 4096 rows on 3 ranks)
# hint: ceil|round(ing|ed)?|padd|rows? ?/ ?N|up\b|shard size
# Wrong: round() rounds 341.33 down to 341 rows, but FSDP2's first shard is ceil(rows/N);
# it agrees for most sizes (exact or .67 fractions), which is what makes it hard to see.
import math


def answer(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
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
        local = 0
        for s in shapes:
            rows = max(1, round(s[0] / world_size))  # rows per shard, at least one
            local += rows * math.prod(s[1:])
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(plan)
