# expect: fail sorts the caller's shapes list in place for ZeRO-1 (list.sort), leaving the caller's list reordered; the numbers are right
# hint: mutat|modif|in.?place|input|shapes|argument|reorder|changed
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    total = sum(math.prod(s) for s in shapes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        shapes.sort(key=math.prod, reverse=True)  # largest first; stable for equal sizes
        sizes = [0] * world_size
        mine = []
        for s in shapes:
            rank = sizes.index(min(sizes))
            sizes[rank] += math.prod(s)
            if rank == 0:
                mine.append(math.prod(s))
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
