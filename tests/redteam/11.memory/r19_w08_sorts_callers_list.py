# expect: fail sorts the caller's shapes list in place (largest first) for ZeRO-1, changing the model's order for whoever passed it
# hint: in.?place|mutat|modif|caller|input|copy|sort\(\)|\.sort
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    psi, n = sum(math.prod(s) for s in shapes), world_size
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + 4 * len(shapes)}
    if plan == "zero1":
        shapes.sort(key=math.prod, reverse=True)  # largest first (stable: module order on ties)
        load, mine = [0] * n, []
        for shape in shapes:
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
