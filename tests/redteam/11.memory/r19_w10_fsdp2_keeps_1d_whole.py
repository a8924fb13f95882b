# expect: fail FSDP2 leaves 1-D tensors (norm gains, biases) whole on every rank; FSDP2 cuts every tensor along dimension 0
# hint: every tensor|1-?d|one.?dim|bias|norm|dim(ension)? ?0|first dim|shard
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
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = 0
        for s in shapes:
            if len(s) == 1:  # vectors are too small to be worth sharding
                local += s[0]
            else:
                local += math.ceil(s[0] / n) * math.prod(s[1:])
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(numels)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
