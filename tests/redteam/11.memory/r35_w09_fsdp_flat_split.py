# expect: fail shards each FSDP2 tensor as a flat vector, ceil(numel / N) elements, instead of ceil(rows / N) whole rows, which undercounts the padding of multi-column tensors.
# hint: rows|dimension|dim 0|first dim|ceil|pad
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
    local = sum(math.ceil(numel / n) for numel in sizes)  # each tensor flattened, then padded
    return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}

answer = predict
