# expect: fail ZeRO-1 keeps only the owned tensors' gradients (that is ZeRO-2); ZeRO-1 keeps every gradient on every rank
# hint: gradient|grads|zero.?2|all.?reduce|every (parameter|gradient)|replicat
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(s) for s in shapes]
    psi, n = sum(numels), world_size
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + 4 * len(numels)}
    if plan == "zero1":
        load, mine = [0] * n, []
        for size in sorted(numels, reverse=True):
            rank = load.index(min(load))
            load[rank] += size
            if rank == 0:
                mine.append(size)
        owned = sum(mine)  # a rank needs gradients only for what it updates
        return {"params": 4 * psi, "grads": 4 * owned, "optimizer": 8 * owned + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(numels)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
