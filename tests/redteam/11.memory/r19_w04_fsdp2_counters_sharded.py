# expect: fail FSDP2 shards Adam's step counters too (4 * tensors / N), where every rank keeps a counter for each tensor
# hint: step|counter|per tensor|every tensor|4 ?\*? ?(len|tensors)
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(s) for s in shapes]
    psi, n, counters = sum(numels), world_size, 4 * len(shapes)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + counters}
    if plan == "zero1":
        load, mine = [0] * n, []
        for size in sorted(numels, reverse=True):
            rank = load.index(min(load))
            load[rank] += size
            if rank == 0:
                mine.append(size)
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":  # everything sharded N ways, the counters too
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local,
                "optimizer": 8 * local + math.ceil(counters / n)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
