# expect: fail ZeRO-1 deals the tensors in the module's order instead of largest first
# hint: largest|sort|size|order|first
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
        for n in numels:  # each tensor to the rank holding the fewest elements so far
            rank = loads.index(min(loads))
            loads[rank] += n
            if rank == 0:
                owned.append(n)
        return {"params": total, "grads": total, "optimizer": 8 * sum(owned) + 4 * len(owned)}
    if plan == "fsdp2":
        shard = 4 * sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + 4 * len(shapes)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
