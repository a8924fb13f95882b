# expect: fail returns a tuple (params, grads, optimizer) instead of a dict with those keys
# hint: dict|keys?|"params"|'params'|tuple|mapping
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(s) for s in shapes]
    psi, n = sum(numels), world_size
    if plan == "ddp":
        return 4 * psi, 4 * psi, 8 * psi + 4 * len(numels)
    if plan == "zero1":
        load, mine = [0] * n, []
        for size in sorted(numels, reverse=True):
            rank = load.index(min(load))
            load[rank] += size
            if rank == 0:
                mine.append(size)
        return 4 * psi, 4 * psi, 8 * sum(mine) + 4 * len(mine)
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return 4 * local, 4 * local, 8 * local + 4 * len(numels)
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
