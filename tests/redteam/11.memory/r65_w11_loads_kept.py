# expect: fail ZeRO-1's per-rank element counts live in a module-level dict never cleared, so a second ZeRO-1 call deals onto the first call's loads
# hint: second call|state|reset|clear|cleared|previous call|earlier call|carr(y|ied) over|left over|global|fresh
# Wrong: each prediction is a fresh optimizer; the first ZeRO-1 call is right, later ones
# start from the loads the earlier deal left behind.
import collections
import math

_held = collections.defaultdict(int)  # elements dealt to each rank so far


def answer(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        mine = []
        for numel in sorted(numels, reverse=True):
            rank = min(range(world_size), key=lambda r: (_held[r], r))
            _held[rank] += numel
            if rank == 0:
                mine.append(numel)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(plan)
