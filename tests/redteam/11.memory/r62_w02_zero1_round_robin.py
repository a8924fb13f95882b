# expect: fail ZeRO-1 deals the sorted tensors round-robin (fewest tensors per rank) instead of to the rank with the fewest elements
# hint: fewest|elements|greedy|round.?robin|balance|load
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(shape) for shape in shapes]
    total = 4 * sum(numels)
    if plan == "ddp":
        return {"params": total, "grads": total, "optimizer": 2 * total + 4 * len(numels)}
    if plan == "zero1":
        ordered = sorted(numels, reverse=True)  # largest first, ties in module order
        owned = ordered[0::world_size]  # rank 0 takes the 1st, (N+1)th, (2N+1)th, ...
        return {"params": total, "grads": total, "optimizer": 8 * sum(owned) + 4 * len(owned)}
    if plan == "fsdp2":
        shard = 4 * sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + 4 * len(shapes)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
