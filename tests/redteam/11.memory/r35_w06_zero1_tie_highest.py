# expect: fail breaks ties between equally loaded ranks toward the highest rank (a <= scan), so the largest tensor goes to the last rank instead of rank 0.
# hint: tie|lowest|rank 0|least|fewest
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
        load = [0] * n
        owned = [[] for _ in range(n)]
        for numel in sorted(sizes, reverse=True):
            best = 0
            for r in range(n):
                if load[r] <= load[best]:
                    best = r
            load[best] += numel
            owned[best].append(numel)
        return {"params": 4 * psi, "grads": 4 * psi,
                "optimizer": 8 * sum(owned[0]) + 4 * len(owned[0])}
    local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}

answer = predict
