# expect: fail ZeRO-1 deals the tensors greedily in the module's order, without sorting them largest first
# hint: sort|largest|order|first|descending
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numel = [math.prod(s) for s in shapes]
    if plan == "ddp":
        t = sum(numel)
        return {"params": 4 * t, "grads": 4 * t, "optimizer": 8 * t + 4 * len(numel)}
    if plan == "zero1":
        t = sum(numel)
        sizes = [0] * world_size
        owned = []
        for n in numel:  # each tensor to the rank holding the fewest elements so far
            rank = sizes.index(min(sizes))
            sizes[rank] += n
            if rank == 0:
                owned.append(n)
        return {"params": 4 * t, "grads": 4 * t, "optimizer": 8 * sum(owned) + 4 * len(owned)}
    if plan == "fsdp2":
        local = [math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes]
        t = sum(local)
        return {"params": 4 * t, "grads": 4 * t, "optimizer": 8 * t + 4 * len(local)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
