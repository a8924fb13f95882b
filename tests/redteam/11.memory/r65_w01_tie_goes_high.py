# expect: fail ZeRO-1's deal breaks ties between equally loaded ranks toward the highest rank, not the lowest
# hint: tie|lowest rank|equal(ly)? (load|held|elements)|fewest|which rank|first rank|rank 0
# Wrong: `<=` keeps the last rank among those holding the fewest elements, so the first
# (largest) tensor goes to rank N-1; the prompt says the lowest rank wins a tie.
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
            best = 0
            for rank in range(world_size):
                if held[rank] <= held[best]:
                    best = rank
            held[best] += numel
            if best == 0:
                mine.append(numel)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(plan)
