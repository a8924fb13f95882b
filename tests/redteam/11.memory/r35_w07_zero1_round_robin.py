# expect: fail gives ZeRO-1 rank 0 every N-th tensor (params[rank::world], chapter 10's by-hand ZeRO-1), not ZeroRedundancyOptimizer's largest-first greedy deal.
# hint: largest|least|fewest|greedy|sort|deal|whole
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
        mine = sizes[0::n]  # rank 0 owns tensors 0, N, 2N, ...
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}

answer = predict
