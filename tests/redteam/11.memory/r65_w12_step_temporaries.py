# expect: fail adds Adam's step temporaries (the largest tensor's moments, seen in the tracker's Optstate at the peak) to the state held after the step
# hint: peak|temporar|after (the|a) (training )?step|kept|held after|inside (the )?(optimizer\.)?step|transient
# Wrong: the prompt asks for the bytes rank 0 holds after the step; the temporaries of
# optimizer.step() are freed by then (the chapter: Optstate at the peak > state kept).
import math


def _adam(numels):
    """Two moments and a step counter per tensor, plus the update's temporaries."""
    if not numels:
        return 0
    return 8 * sum(numels) + 4 * len(numels) + 8 * max(numels)


def answer(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": _adam(numels)}
    if plan == "zero1":
        held = [0] * world_size
        mine = []
        for numel in sorted(numels, reverse=True):
            rank = held.index(min(held))
            held[rank] += numel
            if rank == 0:
                mine.append(numel)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": _adam(mine)}
    if plan == "fsdp2":
        local = [-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes]
        return {"params": 4 * sum(local), "grads": 4 * sum(local), "optimizer": _adam(local)}
    raise ValueError(plan)
