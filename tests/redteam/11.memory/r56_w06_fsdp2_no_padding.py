# expect: fail FSDP2 shards each tensor evenly (numel // N, rounded down) instead of ceil(rows / N) padded rows, wrong whenever N does not divide the rows
# hint: pad|ceil|round|uneven|divid|rows
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numel = [math.prod(s) for s in shapes]
    total = sum(numel)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(numel)}
    if plan == "zero1":
        sizes = [0] * world_size
        mine = []
        for n in sorted(numel, reverse=True):
            rank = sizes.index(min(sizes))
            sizes[rank] += n
            if rank == 0:
                mine.append(n)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = [n // world_size for n in numel]
        return {
            "params": 4 * sum(local),
            "grads": 4 * sum(local),
            "optimizer": 8 * sum(local) + 4 * len(local),
        }
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
