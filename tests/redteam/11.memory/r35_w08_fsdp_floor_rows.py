# expect: fail cuts FSDP2's shards with rows // N (floor), so rank 0 loses the extra row when rows do not divide and holds nothing of tensors with fewer rows than ranks.
# hint: ceil|pad|rows|round|floor
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
    local = sum(s[0] // n * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}

answer = predict
