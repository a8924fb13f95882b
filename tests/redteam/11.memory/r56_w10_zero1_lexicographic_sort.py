# expect: fail ZeRO-1 sorts the shape tuples themselves (sorted(shapes, reverse=True), lexicographic by first dimension) instead of by number of elements
# hint: numel|element|size|lexicograph|sort|largest
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    total = sum(math.prod(s) for s in shapes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        sizes = [0] * world_size
        mine = []
        for s in sorted(shapes, reverse=True):  # largest first
            n = math.prod(s)
            rank = sizes.index(min(sizes))
            sizes[rank] += n
            if rank == 0:
                mine.append(n)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
