# expect: fail ZeRO-1 reports the largest rank's optimizer state (max over ranks, as the chapter prints it) instead of rank 0's
# hint: rank 0|rank.?0|max|largest rank|which rank|other rank
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numel = [math.prod(s) for s in shapes]
    total = sum(numel)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(numel)}
    if plan == "zero1":
        sizes = [0] * world_size
        state = [0] * world_size
        for n in sorted(numel, reverse=True):
            rank = sizes.index(min(sizes))
            sizes[rank] += n
            state[rank] += 8 * n + 4
        return {"params": 4 * total, "grads": 4 * total, "optimizer": max(state)}
    if plan == "fsdp2":
        local = [math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes]
        return {
            "params": 4 * sum(local),
            "grads": 4 * sum(local),
            "optimizer": 8 * sum(local) + 4 * len(local),
        }
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
