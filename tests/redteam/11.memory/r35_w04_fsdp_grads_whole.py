# expect: fail keeps FSDP2's gradients whole (ZeRO-2 backwards), though FSDP2 reduce-scatters them into shards like the parameters.
# hint: grad|shard|reduce.scatter|fsdp2
# name: predict
import math


def predict(shapes, plan, world_size):
    n = world_size
    sizes = [math.prod(s) for s in shapes]
    psi = sum(sizes)
    counters = 4 * len(sizes)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + counters}
    if plan == "zero1":
        load, mine = [0] * n, []
        for numel in sorted(sizes, reverse=True):
            r = load.index(min(load))
            load[r] += numel
            if r == 0:
                mine.append(numel)
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
    # backward computes every gradient in full before the optimizer sees its shard
    return {"params": 4 * local, "grads": 4 * psi, "optimizer": 8 * local + counters}

answer = predict
