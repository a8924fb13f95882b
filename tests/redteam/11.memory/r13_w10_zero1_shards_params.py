# expect: fail ZeRO-1 counts only rank 0's own parameters and gradients (ZeRO-1 keeps them all)
# hint: every param|all (the )?param|whole|replicat|not shard|unshard|full|keeps? (them )?all
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    n = world_size
    numels = [math.prod(s) for s in shapes]
    psi = sum(numels)
    counters = 4 * len(shapes)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + counters}
    if plan == "zero1":  # rank 0 owns its share of the parameters
        held = [0] * n
        mine = []
        for size in sorted(numels, reverse=True):
            rank = held.index(min(held))
            held[rank] += size
            if rank == 0:
                mine.append(size)
        own = sum(mine)
        return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
