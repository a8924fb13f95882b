# expect: fail FSDP2 leaves 1-D tensors (norm gains, biases) whole on every rank instead of sharding them too
# hint: 1-?d|vector|norm|bias|every tensor|shard
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
        elements = 0
        for s in shapes:
            if len(s) < 2:  # a norm's gains: too small to shard, kept whole
                elements += math.prod(s)
            else:
                elements += math.ceil(s[0] / world_size) * math.prod(s[1:])
        shard = 4 * elements
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + 4 * len(numels)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
