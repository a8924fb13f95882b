# expect: fail sorts the caller's shapes list in place (largest first), so the caller's list is no longer in the module's order
# hint: in.?place|mutat|modif|caller|input|shapes|order|side.?effect
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    total = 4 * sum(math.prod(s) for s in shapes)
    if plan == "ddp":
        return {"params": total, "grads": total, "optimizer": 2 * total + 4 * len(shapes)}
    if plan == "zero1":
        shapes.sort(key=math.prod, reverse=True)  # largest first; sort is stable
        loads = [0] * world_size
        owned = []
        for shape in shapes:
            rank = loads.index(min(loads))
            loads[rank] += math.prod(shape)
            if rank == 0:
                owned.append(math.prod(shape))
        return {"params": total, "grads": total, "optimizer": 8 * sum(owned) + 4 * len(owned)}
    if plan == "fsdp2":
        shard = 4 * sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + 4 * len(shapes)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
