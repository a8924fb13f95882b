# expect: fail sorts the caller's shapes list in place (largest first) for ZeRO-1: the list is no longer in the module's order
# hint: mutat|in place|in-place|modif|sort|reorder|chang.*(input|argument|shapes|list)|caller
import math


def predict(shapes, plan, world_size):
    if plan == "zero1":
        shapes.sort(key=math.prod, reverse=True)  # stable: equal sizes keep the module's order
        held, count = [0] * world_size, [0] * world_size
        for s in shapes:
            r = held.index(min(held))
            held[r] += math.prod(s)
            count[r] += 1
        total = sum(held)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * held[0] + 4 * count[0]}
    if plan == "fsdp2":
        mine = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * mine, "grads": 4 * mine, "optimizer": 8 * mine + 4 * len(shapes)}
    total = sum(math.prod(s) for s in shapes)
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}


answer = predict
