# expect: fail ZeRO-1 breaks ties between equally loaded ranks towards the highest rank, not the lowest
# hint: tie|lowest rank|fewest|least|rank 0|first rank
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(s) for s in shapes]
    psi, n = sum(numels), world_size
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + 4 * len(numels)}
    if plan == "zero1":
        load = [0] * n
        owned = [[] for _ in range(n)]
        for size in sorted(numels, reverse=True):
            least = min(load)
            rank = max(r for r in range(n) if load[r] == least)  # the last of the least loaded
            load[rank] += size
            owned[rank].append(size)
        mine = owned[0]
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(numels)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
