# expect: fail counts Adam's two moments but not its 4-byte step counter per tensor, so the optimizer state is short by 4 bytes per updated tensor under every plan.
# hint: step|counter|4 bytes per tensor|per tensor
# name: predict
import math


def predict(shapes, plan, world_size):
    n = world_size
    sizes = [math.prod(s) for s in shapes]
    psi = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi}
    if plan == "zero1":
        load = [0] * n
        for numel in sorted(sizes, reverse=True):
            load[load.index(min(load))] += numel
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * load[0]}
    local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local}

answer = predict
