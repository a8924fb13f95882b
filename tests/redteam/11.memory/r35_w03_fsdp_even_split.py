# expect: fail divides FSDP2's bytes evenly, 4Ψ/N, instead of counting each tensor's ceil(rows / N) rows, so it misses the padding whenever rows do not divide by N.
# hint: ceil|pad|rows|dimension|first dim|shard
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
    local = math.ceil(psi / n)  # every rank holds 1/N of every parameter
    return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}

answer = predict
