# expect: fail ZeRO-1 gives rank 0 an even share of Adam's state (8Ψ/N, chapter 10's formula, and a share of the counters) instead of the whole tensors ZeroRedundancyOptimizer deals it
# hint: whole|even|evenly|8Ψ/N|share|partition|deal|largest
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numel = [math.prod(s) for s in shapes]
    total, count = sum(numel), len(numel)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * count}
    if plan == "zero1":
        # the optimizer state is partitioned over the ranks: each keeps 1/N of it
        optimizer = 8 * total // world_size + 4 * math.ceil(count / world_size)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": optimizer}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * count}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
