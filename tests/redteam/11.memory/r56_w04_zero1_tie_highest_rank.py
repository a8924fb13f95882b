# expect: fail ZeRO-1's greedy deal breaks ties toward the highest rank (<= in the running minimum) instead of the lowest, so rank 0 gets a different set of tensors
# hint: tie|lowest|rank 0|rank0|equal|fewest
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
            best = 0
            for r in range(world_size):
                if sizes[r] <= sizes[best]:
                    best = r
            sizes[best] += n
            if best == 0:
                mine.append(n)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = [math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes]
        return {
            "params": 4 * sum(local),
            "grads": 4 * sum(local),
            "optimizer": 8 * sum(local) + 4 * len(local),
        }
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
