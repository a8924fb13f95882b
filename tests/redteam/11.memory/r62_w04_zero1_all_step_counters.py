# expect: fail ZeRO-1 counts a 4-byte step counter for every tensor of the model, not only for the tensors rank 0 updates
# hint: step|counter|per tensor|owns|updates
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(shape) for shape in shapes]
    total = 4 * sum(numels)
    counters = 4 * len(numels)  # Adam's step, one float32 per tensor
    if plan == "ddp":
        return {"params": total, "grads": total, "optimizer": 2 * total + counters}
    if plan == "zero1":
        loads = [0] * world_size
        owned = 0
        for n in sorted(numels, reverse=True):
            rank = loads.index(min(loads))
            loads[rank] += n
            if rank == 0:
                owned += n
        return {"params": total, "grads": total, "optimizer": 8 * owned + counters}
    if plan == "fsdp2":
        shard = 4 * sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": shard, "grads": shard, "optimizer": 2 * shard + counters}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
