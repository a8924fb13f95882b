# expect: fail ZeRO-1 adds a single 4-byte step counter per rank (fitted to the chapter's 196,608,004), not one per tensor rank 0 holds
# hint: step counter|counter|per tensor|4.?b(yte)?s? (per|for each|a) tensor|tensors? (it|rank 0) (holds|updates|owns)
# Wrong: the chapter's 8-rank figure has one counter only because rank 0 got one tensor
# (the embedding); on 2 or 3 ranks rank 0 updates several tensors, each with its counter.
import math


def answer(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        held = [0] * world_size
        mine = 0
        for numel in sorted(numels, reverse=True):
            rank = held.index(min(held))
            held[rank] += numel
            if rank == 0:
                mine += numel
        # 8 bytes of moments per element, plus the step counter (196,608,004 = 8 x 24,576,000 + 4)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * mine + 4}
    if plan == "fsdp2":
        local = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(plan)
