# expect: fail deals ZeRO-1's tensors in the module's order instead of largest first, so rank 0 gets a different set of tensors than ZeroRedundancyOptimizer gives it.
# hint: largest|sort|order|size|first
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
        for numel in sizes:  # each tensor to the rank that holds the fewest elements
            r = load.index(min(load))
            load[r] += numel
            if r == 0:
                mine.append(numel)
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}

answer = predict
