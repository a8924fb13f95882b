# expect: fail ZeRO-1 sorts the tensors by their first dimension (rows), not by their number of elements
# hint: element|numel|size|largest first|sort|rows
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(s) for s in shapes]
    psi, n = sum(numels), world_size
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + 4 * len(shapes)}
    if plan == "zero1":
        load = [0] * n
        mine = []
        for shape in sorted(shapes, key=lambda s: s[0], reverse=True):  # the biggest first
            rank = load.index(min(load))
            load[rank] += math.prod(shape)
            if rank == 0:
                mine.append(math.prod(shape))
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
