# expect: fail ZeRO-1 treated as sharding parameters and gradients too, not only Adam's state
# hint: param|grad|replica|every rank|whole model|ZeRO-1 keeps
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        # rank 0 keeps and updates only the tensors it owns
        loads, mine = [0] * world_size, []
        for n in sorted(sizes, reverse=True):
            r = loads.index(min(loads))
            loads[r] += n
            if r == 0:
                mine.append(n)
        own = sum(mine)
        return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(mine)}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}


answer = predict
