# expect: fail FSDP2's rank 0 given the short remainder shard (the padded one) instead of a full ceil(rows/N) shard
# hint: rank 0|first shard|ceil|pad|remainder|last
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        loads, mine = [0] * world_size, []
        for n in sorted(sizes, reverse=True):
            r = loads.index(min(loads))
            loads[r] += n
            if r == 0:
                mine.append(n)
        opt = 8 * sum(mine) + 4 * len(mine)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = 0
    for s in shapes:
        rows, per = s[0], math.ceil(s[0] / world_size)
        # the padding goes on the first shard, so rank 0 keeps what the others leave
        mine = max(rows - (world_size - 1) * per, 0) if rows % world_size else per
        own += mine * math.prod(s[1:])
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}


answer = predict
