# expect: pass a memo of element counts local to each call (rebuilt every call), loads tracked in a list of pairs
# hint:
import math


def predict(shapes, plan, world_size):
    memo = {}  # per call: a shape seen twice is counted once; nothing survives the call

    def numel(shape):
        shape = tuple(shape)
        if shape not in memo:
            memo[shape] = math.prod(shape)
        return memo[shape]

    if plan not in ("ddp", "zero1", "fsdp2"):
        raise ValueError(plan)
    result = {}
    if plan == "fsdp2":
        per_rank = [divmod(s[0], world_size) for s in shapes]
        local = sum((q + (r > 0)) * numel(s[1:]) for (q, r), s in zip(per_rank, shapes))
        result["params"] = result["grads"] = 4 * local
        result["optimizer"] = 8 * local + 4 * len(shapes)
        return result
    total = sum(numel(s) for s in shapes)
    result["params"] = result["grads"] = 4 * total
    if plan == "ddp":
        result["optimizer"] = 8 * total + 4 * len(shapes)
        return result
    ranks = [[0, r, 0] for r in range(world_size)]  # [elements, rank, tensors]
    for index in sorted(range(len(shapes)), key=lambda i: (-numel(shapes[i]), i)):
        target = min(ranks, key=lambda e: (e[0], e[1]))
        target[0] += numel(shapes[index])
        target[2] += 1
    result["optimizer"] = 8 * ranks[0][0] + 4 * ranks[0][2]
    return result


answer = predict
