# expect: fail ZeRO-1's helper keeps rank 0's tensors in a mutable default list, so every later ZeRO-1 call adds the earlier calls' tensors
# hint: mutable|default|accumulat|state|second call|called twice|repeat|stale
import math


def _rank0_tensors(numels, world_size, owned=[]):
    """The sizes of the tensors ZeroRedundancyOptimizer gives rank 0."""
    loads = [0] * world_size
    for n in sorted(numels, reverse=True):
        rank = loads.index(min(loads))
        loads[rank] += n
        if rank == 0:
            owned.append(n)
    return owned


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(shape) for shape in shapes]
    total = 4 * sum(numels)
    if plan == "ddp":
        return {"params": total, "grads": total, "optimizer": 2 * total + 4 * len(numels)}
    if plan == "zero1":
        owned = _rank0_tensors(numels, world_size)
        return {"params": total, "grads": total, "optimizer": 8 * sum(owned) + 4 * len(owned)}
    if plan == "fsdp2":
        shard = 4 * sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + 4 * len(numels)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
