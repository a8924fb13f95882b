# expect: fail sorts the caller's shapes list in place for ZeRO-1's deal (values right), so the caller's model description comes back reordered.
# hint: caller|list|in place|sort|mutat|modif|shapes
# name: predict
import math


def predict(shapes, plan, world_size):
    n = world_size
    psi = sum(math.prod(s) for s in shapes)
    counters = 4 * len(shapes)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + counters}
    if plan == "zero1":
        shapes.sort(key=math.prod, reverse=True)  # largest first (stable: ties keep their order)
        load, mine = [0] * n, []
        for s in shapes:
            r = load.index(min(load))
            load[r] += math.prod(s)
            if r == 0:
                mine.append(math.prod(s))
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}

answer = predict
