# expect: fail ZeRO-1 deals the sorted tensors round-robin instead of to the rank with the fewest elements
# hint: fewest|round.?robin|deal|balanc|least|element
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        ordered = sorted(sizes, reverse=True)
        mine = ordered[0::world_size]  # rank 0 takes the 1st, (N+1)th, ... tensor
        opt = 8 * sum(mine) + 4 * len(mine)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}


answer = predict
