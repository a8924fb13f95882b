# expect: fail caches its answer by (plan, world_size) only, so a second model with the same plan and world size gets the first model's bytes
# hint: cache|memo|stale|second call|reuse|shapes|model
import math

_seen = {}


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    key = (plan, world_size)
    if key in _seen:  # the same plan on the same ranks: computed already
        return dict(_seen[key])
    numels = [math.prod(shape) for shape in shapes]
    total = 4 * sum(numels)
    if plan == "ddp":
        got = {"params": total, "grads": total, "optimizer": 2 * total + 4 * len(numels)}
    elif plan == "zero1":
        loads = [0] * world_size
        owned = []
        for n in sorted(numels, reverse=True):
            rank = loads.index(min(loads))
            loads[rank] += n
            if rank == 0:
                owned.append(n)
        got = {"params": total, "grads": total, "optimizer": 8 * sum(owned) + 4 * len(owned)}
    elif plan == "fsdp2":
        shard = 4 * sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        got = {"params": shard, "grads": shard, "optimizer": 2 * shard + 4 * len(numels)}
    else:
        raise ValueError(f"unknown plan {plan!r}")
    _seen[key] = got
    return dict(got)


answer = predict
