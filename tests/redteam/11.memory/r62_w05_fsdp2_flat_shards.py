# expect: fail FSDP2 shards each tensor as a flat ceil(numel / N) instead of ceil(rows / N) whole rows
# hint: rows|first dim|dim(ension)? 0|pad|ceil
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(shape) for shape in shapes]
    total = 4 * sum(numels)
    if plan == "ddp":
        return {"params": total, "grads": total, "optimizer": 2 * total + 4 * len(numels)}
    if plan == "zero1":
        loads = [0] * world_size
        owned = []
        for n in sorted(numels, reverse=True):
            rank = loads.index(min(loads))
            loads[rank] += n
            if rank == 0:
                owned.append(n)
        return {"params": total, "grads": total, "optimizer": 8 * sum(owned) + 4 * len(owned)}
    if plan == "fsdp2":
        # every tensor cut into N equal pieces, the last ones padded
        shard = 4 * sum(math.ceil(n / world_size) for n in numels)
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + 4 * len(numels)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
