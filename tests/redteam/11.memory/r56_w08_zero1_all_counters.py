# expect: fail ZeRO-1 counts a 4-byte step counter for every tensor of the model on rank 0, not only for the tensors rank 0 owns and updates
# hint: step|counter|own|owns|tensors it (updates|holds)|only
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numel = [math.prod(s) for s in shapes]
    total, counters = sum(numel), 4 * len(numel)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + counters}
    if plan == "zero1":
        sizes = [0] * world_size
        mine = 0
        for n in sorted(numel, reverse=True):
            rank = sizes.index(min(sizes))
            sizes[rank] += n
            if rank == 0:
                mine += n
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * mine + counters}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
